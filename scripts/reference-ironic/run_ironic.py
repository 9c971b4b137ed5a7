#!/usr/bin/python3
"""Runs one of the reference Ironic's commands for start.sh, with Debian's /usr/bin/python3.

    run_ironic.py [--fixes debian13] dbsync CONF SUBCOMMAND   ironic-dbsync SUBCOMMAND
    run_ironic.py [--fixes debian13] serve CONF               ironic (API and conductor in one process)

--fixes debian13 applies debian13_ironic_fixes.py before Ironic starts (the 2025.1 reference).
Ironic's own entry points read sys.argv, so they are called with the argv the installed console
scripts would have seen.
"""
import sys


def main(argv):
    if argv[:2] == ['--fixes', 'debian13']:
        import debian13_ironic_fixes  # next to this file, which is on sys.path
        debian13_ironic_fixes.apply()
        argv = argv[2:]
    if len(argv) == 3 and argv[0] == 'dbsync':
        sys.argv = ['ironic-dbsync', '--config-file', argv[1], argv[2]]
        from ironic.cmd.dbsync import main as command
    elif len(argv) == 2 and argv[0] == 'serve':
        sys.argv = ['ironic', '--config-file', argv[1]]
        from ironic.cmd.singleprocess import main as command
    else:
        sys.exit(__doc__)
    return command()


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
