#!/bin/sh
# ipmi_sim's chassis_control program for one QEMU VM (see vm-bmc.ts):
#   chassis-qemu.sh VMDIR get PARM...          prints PARM:VALUE lines (power 0|1, boot)
#   chassis-qemu.sh VMDIR set PARM VALUE...    power 1 starts QEMU, power 0 stops it, reset
#                                              restarts it, boot stores the boot device
#   chassis-qemu.sh VMDIR check PARM VALUE...  accepts everything
# VMDIR holds qemu.args (QEMU's arguments, one a line), boot, qemu.pid, and the logs. QEMU starts in
# the background so ipmi_sim gets its answer at once (ipmitool retransmits after a second); until it
# has written its pid file, `starting` makes power read as on.
dir=$1; op=$2; shift 2
echo "$(date -u +%T) $op $*" >>"$dir/chassis.log"

# QEMU counts as running until it exits; an exited QEMU nobody reaped yet (a zombie) does not.
running() {
  [ -f "$dir/starting" ] && return 0
  pid=$(cat "$dir/qemu.pid" 2>/dev/null) || return 1
  state=$(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null | cut -c1)
  [ -n "$state" ] && [ "$state" != Z ]
}

start() {
  running && return 0
  order=c
  [ "$(cat "$dir/boot" 2>/dev/null)" = pxe ] && order=n
  : >"$dir/starting"
  (
    set --
    while IFS= read -r arg; do set -- "$@" "$arg"; done <"$dir/qemu.args"
    echo "$(date -u +%T) starting QEMU, boot order $order" >>"$dir/qemu.log"
    qemu-system-x86_64 "$@" -boot order=$order -pidfile "$dir/qemu.pid" -daemonize >>"$dir/qemu.log" 2>&1
    rm -f "$dir/starting"
  ) </dev/null >/dev/null 2>&1 &
}

stop() {
  rm -f "$dir/starting"
  [ -f "$dir/qemu.pid" ] || return 0
  pid=$(cat "$dir/qemu.pid")
  kill "$pid" 2>/dev/null
  for _ in 1 2 3 4 5 6 7 8; do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null
  rm -f "$dir/qemu.pid"
}

while [ $# -gt 0 ]; do
  parm=$1; shift
  case $op in
    get)
      case $parm in
        power) if running; then echo "power:1"; else echo "power:0"; fi ;;
        boot) echo "boot:$(cat "$dir/boot" 2>/dev/null || echo default)" ;;
        *) echo "$parm:0" ;;
      esac
      ;;
    set)
      value=$1; shift
      case $parm in
        power) if [ "$value" = 1 ]; then start; else stop; fi ;;
        reset) stop; start ;;
        shutdown) stop ;;
        boot) echo "$value" >"$dir/boot" ;;
      esac
      ;;
    check) shift ;;
  esac
done
exit 0
