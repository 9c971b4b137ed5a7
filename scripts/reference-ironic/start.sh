#!/usr/bin/env bash
# Starts the reference OpenStack Ironic that the compat-tests compare ironic-ts with: one process
# (API and conductor, in-process RPC), noauth, fake-hardware, on 127.0.0.1.
#
#   scripts/reference-ironic/start.sh DIR [PORT] [DB_URL]
#     DIR     scratch directory for ironic.conf, logs, state and the pid file (created if needed)
#     PORT    API port on 127.0.0.1, default 16395
#     DB_URL  SQLAlchemy URL, default sqlite:///DIR/ironic.sqlite
#             (e.g. mysql+pymysql://root@127.0.0.1/ironic_ref)
#
# IRONIC_REFERENCE_RELEASE picks the release:
#   2023.1 (default)  Debian 12's python3-ironic 21.4.4 (API 1.82), on this machine;
#   2025.1            Debian 13's python3-ironic 29.0.5 (API 1.96), in the Debian 13 root of
#                     scripts/debian13-root.sh (built on first use: minutes, about 1 GB, in
#                     $IRONIC_TS_CACHE_DIR, default /var/cache/ironic-ts). Two regressions of that
#                     package are fixed at run time by debian13_ironic_fixes.py.
# Missing packages are installed (apt). Extra options reach Ironic through oslo.config's
# environment source (OS_<GROUP>__<OPTION>=value). Prints the endpoint once it answers; Ironic runs
# in a session of its own (setsid), its pid in DIR/ironic.pid: stop it with kill -- -"$(cat DIR/ironic.pid)".
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd -P)
dir=${1:?usage: start.sh DIR [PORT] [DB_URL]}
port=${2:-16395}
mkdir -p "$dir/state" "$dir/locks"
dir=$(cd "$dir" && pwd -P)
db=${3:-sqlite:///$dir/ironic.sqlite}
release=${IRONIC_REFERENCE_RELEASE:-2023.1}
packages=(python3-ironic python3-ironicclient python3-openstackclient python3-openstacksdk python3-pymysql)

# python=(...) is how to run Debian's Python with Ironic importable; entry_args adds the fixes.
entry_args=()
case $release in
  2023.1)
    if ! /usr/bin/python3 -c 'import ironic, ironicclient, openstack, pymysql' 2>/dev/null; then
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -qq >/dev/null
      apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
    fi
    python=(/usr/bin/python3) ;;
  2025.1)
    root_script=$here/../debian13-root.sh
    "$root_script" ensure "${packages[@]}" >/dev/null
    python=("$root_script" run --bind "$dir" --bind "$here" /usr/bin/python3)
    entry_args=(--fixes debian13) ;;
  *) echo "IRONIC_REFERENCE_RELEASE must be 2023.1 or 2025.1, not '$release'" >&2; exit 2 ;;
esac

write_conf() {
  cat >"$dir/ironic.conf" <<CONF
[DEFAULT]
auth_strategy = noauth
host = reference
rpc_transport = none
enabled_hardware_types = fake-hardware
enabled_bios_interfaces = fake,no-bios
enabled_boot_interfaces = fake
enabled_console_interfaces = fake,no-console
enabled_deploy_interfaces = fake
enabled_inspect_interfaces = fake,no-inspect
enabled_management_interfaces = fake
enabled_network_interfaces = noop
enabled_power_interfaces = fake
enabled_raid_interfaces = fake,no-raid
enabled_rescue_interfaces = fake,no-rescue
enabled_storage_interfaces = noop
enabled_vendor_interfaces = fake,no-vendor
default_deploy_interface = fake
default_network_interface = noop
log_file = $dir/ironic.log
state_path = $dir/state
[api]
host_ip = 127.0.0.1
port = $port
[database]
connection = $db
[dhcp]
dhcp_provider = none
[conductor]
automated_clean = false
[oslo_concurrency]
lock_path = $dir/locks
CONF
}

# Alembic cannot alter constraints on SQLite, so a new SQLite file gets create_schema (kept when it
# already exists); any other database is brought to the release's head with upgrade.
sync_schema() {
  local command=upgrade
  if [[ $db == sqlite* ]]; then
    [[ -s $dir/ironic.sqlite ]] && return 0
    command=create_schema
  fi
  "${python[@]}" "$here/run_ironic.py" "${entry_args[@]}" dbsync "$dir/ironic.conf" "$command" >"$dir/dbsync.log" 2>&1 ||
    { echo "ironic-dbsync $command failed; see $dir/dbsync.log" >&2; exit 1; }
}

# Ready when /v1 answers and the conductor has registered fake-hardware.
ready() {
  curl -sf "http://127.0.0.1:$port/v1" >/dev/null 2>&1 &&
    curl -sf -H 'X-OpenStack-Ironic-API-Version: 1.82' "http://127.0.0.1:$port/v1/drivers" 2>/dev/null | grep -q fake-hardware
}

write_conf
sync_schema
setsid "${python[@]}" "$here/run_ironic.py" "${entry_args[@]}" serve "$dir/ironic.conf" >"$dir/stdout.log" 2>&1 </dev/null &
pid=$!
echo "$pid" >"$dir/ironic.pid"
for _ in $(seq 1 240); do
  if ready; then echo "reference Ironic $release ready: http://127.0.0.1:$port (pid $pid)"; exit 0; fi
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.5
done
echo "reference Ironic $release did not become ready; see $dir/ironic.log and $dir/stdout.log" >&2
exit 1
