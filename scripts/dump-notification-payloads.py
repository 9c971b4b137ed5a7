"""Prints Ironic's versioned notification payload classes as JSON: for each *Payload class, its
VERSION and its fields (name -> oslo.versionedobjects field type, nullable). Run against the
Ironic whose notifications ironic-ts must match (29.0.5, in the Debian 13 root); the notification
test compares what ironic-ts sends with this, so the expected schema is Ironic's, not ours."""
import inspect
import json

from ironic import objects
from ironic.objects import notification

objects.register_all()


def payload_classes():
    seen = {}
    for name in dir(objects):
        pass
    import pkgutil
    import importlib
    import ironic.objects as pkg
    for mod in pkgutil.iter_modules(pkg.__path__):
        module = importlib.import_module('ironic.objects.' + mod.name)
        for cname, cls in inspect.getmembers(module, inspect.isclass):
            if (issubclass(cls, notification.NotificationPayloadBase)
                    and cls is not notification.NotificationPayloadBase
                    and cls.__module__ == module.__name__):
                seen[cname] = cls
    return seen


def describe(cls):
    return {
        'version': cls.VERSION,
        'fields': {name: {'type': type(field).__name__, 'nullable': field.nullable}
                   for name, field in sorted(cls.fields.items())},
    }


print(json.dumps({name: describe(cls) for name, cls in sorted(payload_classes().items())},
                 indent=1, sort_keys=True))
