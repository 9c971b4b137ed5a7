#!/usr/bin/python3
"""Drive the ironic-ts Redfish emulator through sushy, the library Ironic's redfish driver uses.

Usage: sushy_conformance.py URL USERNAME PASSWORD SYSTEM_PATH OTHER_SYSTEM_PATH STAGED_SYSTEM_PATH
(STAGED_SYSTEM_PATH keeps its boot mode in a @Redfish.Settings object.)

Prints one JSON object: for every step either the values sushy observed or {"error": "Class: text"}.
The node:test file that runs this asserts on those values; this script asserts nothing itself.
"""

import json
import sys
import time
import warnings

warnings.filterwarnings('ignore')

import sushy  # noqa: E402
from sushy import auth as sushy_auth  # noqa: E402
from sushy import taskmonitor  # noqa: E402

URL, USER, PASSWORD, SYSTEM_PATH, OTHER_SYSTEM_PATH, STAGED_SYSTEM_PATH = sys.argv[1:7]
results = {}


def value(v):
    """Enum members (sushy constants) to their Redfish strings, recursively."""
    if hasattr(v, 'value') and not isinstance(v, (str, int, float, bool)):
        return v.value
    if isinstance(v, (list, tuple, set)):
        return sorted((value(x) for x in v), key=str) if isinstance(v, set) else [value(x) for x in v]
    if isinstance(v, dict):
        return {str(value(k)): value(x) for k, x in v.items()}
    return v


def step(name):
    def wrap(fn):
        try:
            results[name] = value(fn())
        except Exception as exc:  # the report carries the failure, the node test judges it
            results[name] = {'error': '%s: %s' % (type(exc).__name__, exc)}
        return fn
    return wrap


root = sushy.Sushy(URL, username=USER, password=PASSWORD, verify=False)
system = root.get_system(SYSTEM_PATH)


@step('root')
def _root():
    return {'redfish_version': root.redfish_version, 'uuid': root.uuid, 'product': root.product,
            'sessions_path': root.get_sessions_path()}


@step('systems')
def _systems():
    return sorted(root.get_system_collection().members_identities)


@step('default_system')
def _default_system():
    return root.get_system().identity


@step('system')
def _system():
    return {
        'identity': system.identity, 'uuid': system.uuid, 'power_state': system.power_state,
        'manufacturer': system.manufacturer, 'bios_version': system.bios_version,
        'indicator_led': system.indicator_led, 'memory_gib': system.memory_summary.size_gib,
        'processors': list(system.processors.summary), 'nics': system.ethernet_interfaces.summary,
        'disks': system.simple_storage.disks_sizes_bytes,
        'allowed_resets': system.get_allowed_reset_system_values(),
        'allowed_boot_sources': system.get_allowed_system_boot_source_values(),
    }


def power(action):
    system.reset_system(action)
    system.refresh()
    return system.power_state


@step('power')
def _power():
    seen = []
    for action in (sushy.RESET_ON, sushy.RESET_FORCE_RESTART, sushy.RESET_GRACEFUL_RESTART, sushy.RESET_NMI,
                   sushy.RESET_FORCE_OFF, sushy.RESET_PUSH_POWER_BUTTON, sushy.RESET_GRACEFUL_SHUTDOWN):
        seen.append([value(action), value(power(action))])
    return seen


@step('boot_once')
def _boot_once():
    system.set_system_boot_options(sushy.BOOT_SOURCE_TARGET_PXE, enabled=sushy.BOOT_SOURCE_ENABLED_ONCE,
                                   mode=sushy.BOOT_SOURCE_MODE_UEFI)
    system.refresh()
    before = [system.boot.target, system.boot.enabled, system.boot.mode]
    power(sushy.RESET_ON)
    return {'set': before, 'after_power_on': system.boot.enabled}


@step('boot_continuous')
def _boot_continuous():
    system.set_system_boot_options(sushy.BOOT_SOURCE_TARGET_HDD, enabled=sushy.BOOT_SOURCE_ENABLED_CONTINUOUS,
                                   mode=sushy.BOOT_SOURCE_MODE_BIOS)
    power(sushy.RESET_FORCE_RESTART)
    after_legacy = [system.boot.target, system.boot.enabled, system.boot.mode]
    system.set_system_boot_options(sushy.BOOT_SOURCE_TARGET_CD, mode=sushy.BOOT_SOURCE_MODE_UEFI)
    system.refresh()
    return {'after_reboot': after_legacy, 'cd_uefi': [system.boot.target, system.boot.enabled, system.boot.mode]}


@step('boot_settings_object')
def _boot_settings_object():
    staged = root.get_system(STAGED_SYSTEM_PATH)
    staged.set_system_boot_options(sushy.BOOT_SOURCE_TARGET_CD, enabled=sushy.BOOT_SOURCE_ENABLED_CONTINUOUS,
                                   mode=sushy.BOOT_SOURCE_MODE_BIOS)
    staged.refresh()
    before = [staged.boot.target, staged.boot.enabled, staged.boot.mode]
    staged.reset_system(sushy.RESET_ON)
    staged.refresh()
    return {'before_reset': before, 'after_reset': [staged.boot.target, staged.boot.enabled, staged.boot.mode]}


@step('bios')
def _bios():
    bios = system.bios
    before = dict(bios.attributes)
    bios.set_attributes({'ProcTurboMode': 'Disabled', 'NumCores': 4})
    pending = bios.pending_attributes
    power(sushy.RESET_FORCE_RESTART)
    bios.refresh()
    return {'before': before, 'pending': pending, 'applied': dict(bios.attributes),
            'supported_apply_times': bios.supported_apply_times,
            'apply_time': bios.apply_time_settings.apply_time if bios.apply_time_settings else None}


@step('bios_reset')
def _bios_reset():
    system.bios.reset_bios()
    system.bios.refresh()
    return system.bios.pending_attributes


@step('secure_boot')
def _secure_boot():
    sb = system.secure_boot
    before = [sb.enabled, sb.current_boot, sb.mode]
    sb.set_enabled(True)
    sb.refresh()
    after_set = [sb.enabled, sb.current_boot]
    power(sushy.RESET_FORCE_RESTART)
    sb.refresh()
    sb.reset_keys(sushy.SECURE_BOOT_RESET_KEYS_TO_DEFAULT)
    return {'before': before, 'after_set': after_set, 'after_reboot': [sb.enabled, sb.current_boot]}


@step('managers')
def _managers():
    manager = system.managers[0]
    return {'collection': sorted(root.get_manager_collection().members_identities),
            'identity': manager.identity, 'type': manager.manager_type,
            'firmware_version': manager.firmware_version,
            'systems': [s.identity for s in manager.systems],
            'virtual_media': [[v.identity, value(v.media_types), v.inserted]
                              for v in manager.virtual_media.get_members()]}


@step('virtual_media')
def _virtual_media():
    manager = system.managers[0]
    cd = [v for v in manager.virtual_media.get_members() if sushy.VIRTUAL_MEDIA_CD in v.media_types][0]
    cd.insert_media('http://127.0.0.1/deploy.iso', inserted=True, write_protected=True)
    cd.refresh()
    inserted = {'image': cd.image, 'image_name': cd.image_name, 'inserted': cd.inserted,
                'write_protected': cd.write_protected, 'connected_via': cd.connected_via}
    cd.eject_media()
    cd.refresh()
    return {'inserted': inserted, 'ejected': {'image': cd.image, 'inserted': cd.inserted}}


@step('indicator_led')
def _indicator_led():
    system.set_indicator_led(sushy.INDICATOR_LED_BLINKING)
    system.refresh()
    return system.indicator_led


@step('chassis')
def _chassis():
    chassis = system.chassis[0]
    return {'collection': sorted(root.get_chassis_collection().members_identities),
            'identity': chassis.identity, 'type': chassis.chassis_type,
            'power_state': chassis.power_state, 'indicator_led': chassis.indicator_led}


@step('firmware_update')
def _firmware_update():
    service = root.get_update_service()
    inventory = {f.identity: f.version for f in service.firmware_inventory.get_members()}
    monitor = service.simple_update('http://127.0.0.1/bios-2.5.0.bin', targets=[SYSTEM_PATH])
    uri = monitor.task_monitor_uri
    first_processing = monitor.is_processing
    # What Ironic's periodic firmware check does: re-open the monitor by URI until it stops processing.
    # Sushy.get_task_monitor() builds exactly this, but first loads the packaged standard registries,
    # which Debian's python3-sushy lacks (see the 'root_task_monitor' probe); so build it directly.
    deadline = time.time() + 20
    polled = taskmonitor.TaskMonitor(root._conn, uri)
    while polled.is_processing and time.time() < deadline:
        time.sleep(0.1)
        polled = taskmonitor.TaskMonitor(root._conn, uri)
    task = polled.get_task()
    system.refresh()
    return {'inventory': inventory, 'monitor_uri': uri, 'first_processing': first_processing,
            'still_processing': polled.is_processing, 'task_state': task.task_state,
            'task_status': task.task_status, 'messages': [m.message for m in task.messages],
            'bios_version': system.bios_version,
            'tasks': sorted(root.get_task_service().tasks.members_identities)}


@step('root_task_monitor')
def _root_task_monitor():
    tasks = root.get_task_service().tasks.members_identities
    monitor = root.get_task_monitor(sorted(tasks)[0].replace('/Tasks/', '/TaskMonitors/'))
    return monitor.is_processing


@step('sessions')
def _sessions():
    service = root.get_session_service()
    return {'enabled': service.service_enabled, 'timeout': service.session_timeout,
            'users': [s.username for s in service.sessions.get_members()]}


@step('session_logout')
def _session_logout():
    auth = sushy_auth.SessionAuth(USER, PASSWORD)
    conn = sushy.Sushy(URL, auth=auth, verify=False)
    key_present = bool(auth.get_session_key())
    session_uri = auth.get_session_resource_id()
    identity = conn.get_system(OTHER_SYSTEM_PATH).identity
    auth.close()
    remaining = root.get_session_service().sessions.members_identities
    return {'token': key_present, 'session_uri': session_uri, 'system': identity,
            'still_listed': session_uri in remaining}


@step('basic_auth')
def _basic_auth():
    conn = sushy.Sushy(URL, auth=sushy_auth.BasicAuth(USER, PASSWORD), verify=False)
    return conn.get_system(OTHER_SYSTEM_PATH).power_state


@step('wrong_password')
def _wrong_password():
    conn = sushy.Sushy(URL, username=USER, password='wrong-' + PASSWORD, verify=False)
    return conn.get_system(OTHER_SYSTEM_PATH).identity


@step('missing_system')
def _missing_system():
    return root.get_system(SYSTEM_PATH + '-nope').identity


print(json.dumps(results, sort_keys=True))
