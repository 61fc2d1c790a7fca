"""The mounts of one warm call (used by zygote.py): a /proc of the call's own PID namespace, an
empty /dev/shm, and the secret files that appeared since the fork-server started, covered.

Each spare unshares user, PID, mount and IPC namespaces (zygote.py's own_namespaces); the
call's init (pid 1 there) then mounts, in its own mount namespace, what a cold run's bubblewrap
would give it: a fresh /proc (with bubblewrap's read-only covers of sys, sysrq-trigger, irq and
bus) and a fresh tmpfs on /dev/shm. The mask the app computed for this call covers what the
fork-server's own sandbox does not hide yet. The tool process then drops every capability it
holds in the call's user namespace, so it cannot unmount any of this.

The kernel mounts a /proc only where another one is fully visible. Run as root, bubblewrap
covers parts of its /proc, so it is started with CAP_SYS_ADMIN and CAP_SETPCAP kept (root only):
lift_proc_covers() takes the covers off once, then drops every capability for good.
"""
import ctypes
import os

MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MS_NOEXEC = 8
MS_REMOUNT = 32
MS_BIND = 4096
MS_REC = 16384
MS_PRIVATE = 1 << 18
MS_RELATIME = 1 << 21
# statvfs's ST_* flag -> the MS_* flag a remount must keep (the kernel refuses to drop locked ones).
KEPT_FLAGS = ((2, MS_NOSUID), (4, MS_NODEV), (8, MS_NOEXEC), (1024, 1024), (2048, 2048), (4096, MS_RELATIME))
MNT_DETACH = 2
PR_CAPBSET_DROP = 24
PR_SET_NO_NEW_PRIVS = 38
PROC_COVERS = ('sys', 'sysrq-trigger', 'irq', 'bus')
SHM_ROOT = '/tmp/.tooldesk-shm'

_libc = ctypes.CDLL(None, use_errno=True)


def _c(text):
    return None if text is None else text.encode()


def mount(source, target, fstype, flags, data=None):
    if _libc.mount(_c(source), _c(target), _c(fstype), flags, _c(data)) != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, os.strerror(errno), target)


def remount_read_only(path):
    """Makes the bind mount at `path` read-only, keeping the flags it came with."""
    have = os.statvfs(path).f_flag
    kept = 0
    for st, ms in KEPT_FLAGS:
        if have & st:
            kept |= ms
    mount(None, path, None, MS_BIND | MS_REMOUNT | MS_RDONLY | kept)


def _status(field):
    with open('/proc/self/status') as f:
        for line in f:
            if line.startswith(field + ':'):
                return int(line.split()[1], 16)
    return 0


def drop_caps():
    """Every capability gone (bounding set too, where we may), and no exec can bring one back."""
    for cap in range(64):
        _libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)  # fails harmlessly without CAP_SETPCAP
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3
    data = (ctypes.c_uint32 * 6)()
    if _libc.capset(header, data) != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, 'capset: %s' % os.strerror(errno))
    _libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)


def lift_proc_covers():
    """Once, at the fork-server's start: with the capabilities bubblewrap kept (root only), lift
    its covers of /proc, then drop every capability. Raises when they cannot all be dropped."""
    if not _status('CapEff'):
        return
    for name in PROC_COVERS:
        _libc.umount2(('/proc/' + name).encode(), MNT_DETACH)
    drop_caps()
    if _status('CapEff') or _status('CapPrm') or _status('CapBnd'):
        raise OSError('the fork-server could not drop its capabilities')


def own_mounts(private_tmp):
    """In the call's init, in its own mount namespace: a /proc of its PID namespace (covered as
    bubblewrap covers its own) and an empty /dev/shm. Raises when one cannot be mounted.
    `private_tmp`: /tmp is the sandbox's own (emptied by the fork-server between calls)."""
    mount(None, '/', None, MS_REC | MS_PRIVATE)
    mount('proc', '/proc', 'proc', MS_NOSUID | MS_NODEV | MS_NOEXEC)
    for name in PROC_COVERS:
        path = '/proc/' + name
        if os.path.lexists(path):
            mount(path, path, None, MS_BIND | MS_REC)
            remount_read_only(path)
    if not os.path.isdir('/dev/shm'):
        return
    if not private_tmp or _uid_mapped():
        mount('tmpfs', '/dev/shm', 'tmpfs', MS_NOSUID | MS_NODEV, 'mode=1777')
        return
    # Our uid has no mapping in the call's user namespace (root: mapping 0 needs CAP_SETFCAP),
    # and a tmpfs mounted there refuses to create its files (EOVERFLOW). The sandbox's /tmp
    # can: a folder of its own there becomes /dev/shm, and the folder of all of them is then
    # covered, so no call sees another's. The fork-server empties /tmp between calls.
    folder = os.path.join(SHM_ROOT, os.urandom(8).hex())
    os.makedirs(folder, mode=0o700)
    os.chmod(folder, 0o1777)
    mount(folder, '/dev/shm', None, MS_BIND)
    mount('tmpfs', SHM_ROOT, 'tmpfs', MS_NOSUID | MS_NODEV | MS_RDONLY, 'mode=0755')


def _uid_mapped():
    with open('/proc/self/uid_map') as f:
        return bool(f.read().strip())


def hide(mask):
    """Covers what the app found to hide since the fork-server started: folders with an empty
    read-only tmpfs, files with /dev/null, as bubblewrap does. One that vanished meanwhile has
    nothing to cover; any other failure raises (the call must not run with it readable)."""
    for folder in mask.get('dirs', []):
        try:
            mount('tmpfs', folder, 'tmpfs', MS_NOSUID | MS_NODEV | MS_RDONLY, 'mode=0755')
        except FileNotFoundError:
            pass
    for path in mask.get('files', []):
        try:
            mount('/dev/null', path, None, MS_BIND)
            remount_read_only(path)
        except FileNotFoundError:
            pass


def probe(own_namespaces, private_tmp):
    """Whether a call here can have its own namespaces and mounts: tried once, in a throwaway
    process, before the fork-server says it is ready. Returns None, or why not."""
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            if own_namespaces():
                init = os.fork()
                if init == 0:
                    try:
                        own_mounts(private_tmp)
                        os._exit(0)
                    except BaseException:
                        os._exit(1)
                _, status = os.waitpid(init, 0)
                code = 0 if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0 else 2
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else -1
    if code == 0:
        return None
    return 'user namespaces are not available here' if code == 1 else 'a call could not mount a /proc of its own'
