"""Dump the configuration catalog of Debian's installed Ironic (its own options and those of the
oslo libraries it registers: oslo.db, oslo.log, oslo.messaging, oslo.concurrency, oslo.policy,
keystonemiddleware) into src/conf/catalog/ironic-options.json: per group and option its type,
default, bounds and deprecated names. Facts only: src/conf/registry.ts reads them, and the types
of src/conf/config.ts's accessors are checked against them at build time.

    /usr/bin/python3 scripts/dump-ironic-options.py > src/conf/catalog/ironic-options.json

The committed catalog was dumped from Ironic 21.4.4 with the keystonemiddleware of its day, which
still registered the legacy [keystone_authtoken] admin_* and auth_host/auth_port/auth_protocol
options; choices that Python keeps in a set come out in its order of the day. A few entries were
typed by hand where oslo uses a custom type ([api]unix_socket_mode is an int, [pxe]loader_file_paths
a dict) and deprecated spellings were deduplicated.
"""
import json
import sys

from oslo_config import cfg, types
from oslo_config import generator

NAMESPACES = ['ironic', 'oslo.db', 'oslo.log', 'oslo.messaging', 'oslo.concurrency', 'oslo.policy',
              'keystonemiddleware.auth_token']

# Most specific first: Port is an Integer; every MultiOpt (strings, or dicts such as
# [conductor]clean_step_priority_override) is read as repeated raw values.
TYPE_NAMES = [(cfg.PortOpt, 'port'), (cfg.MultiOpt, 'multistring'), (cfg.IntOpt, 'int'), (cfg.FloatOpt, 'float'),
              (cfg.BoolOpt, 'bool'), (cfg.ListOpt, 'list'), (cfg.DictOpt, 'dict')]


def type_name(opt):
    for cls, name in TYPE_NAMES:
        if isinstance(opt, cls):
            return name
    return 'string'


def spec(group, opt):
    out = {'type': type_name(opt)}
    if opt.default is not None:
        out['default'] = opt.default
    choices = getattr(opt.type, 'choices', None)
    if choices:
        out['choices'] = list(choices)
    for bound in ('min', 'max'):
        value = getattr(opt.type, bound, None)
        if value is not None and out['type'] in ('int', 'float', 'port'):
            out[bound] = value
    if opt.secret:
        out['secret'] = True
    deprecated = ['%s.%s' % (d.group or group, d.name or opt.dest) for d in opt.deprecated_opts]
    if deprecated:
        out['deprecated'] = deprecated
    return out


def catalog():
    groups = {}
    for _namespace, listing in generator._list_opts(NAMESPACES):
        for group, opts in listing:
            name = group if isinstance(group, str) else (group.name if group else 'DEFAULT')
            for opt in opts:
                groups.setdefault(name, {})[opt.dest] = spec(name, opt)
    return {name: dict(sorted(groups[name].items())) for name in sorted(groups, key=lambda g: (g != 'DEFAULT', g))}


json.dump(catalog(), sys.stdout, indent=1, sort_keys=False)
sys.stdout.write('\n')
