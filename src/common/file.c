/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Durable files (see file.h). POSIX only: open/flock/fsync/rename/link. */
#include "common/file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

void grove_errf(char *err, size_t cap, const char *f, ...)
{
    if (err == NULL || cap == 0)
        return;
    va_list ap;
    va_start(ap, f);
    vsnprintf(err, cap, f, ap);
    va_end(ap);
}

void grove_file_dirname(const char *path, char *out, size_t cap)
{
    const char *slash = strrchr(path, '/');
    if (slash == NULL)
        snprintf(out, cap, ".");
    else if (slash == path)
        snprintf(out, cap, "/");
    else
        snprintf(out, cap, "%.*s", (int)(slash - path), path);
}

grove_status grove_file_write_all(int fd, const uint8_t *p, size_t len)
{
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return GROVE_ERR_IO;
        }
        p += w;
        len -= (size_t)w;
    }
    return GROVE_OK;
}

static void wipe_fd(int fd, off_t size);

/* Remove a failed temporary file (wiped first if it held a secret). */
static void drop_temp(const char *tmp, int flags, size_t len)
{
    if (flags & GROVE_FILE_SECRET) {
        int fd = open(tmp, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
        if (fd >= 0) {
            wipe_fd(fd, (off_t)len);
            close(fd);
        }
    }
    unlink(tmp);
}

static int sync_dir(const char *path, char *err, size_t errcap)
{
    char dir[PATH_MAX];
    grove_file_dirname(path, dir, sizeof dir);
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0 || fsync(dfd) != 0) {
        grove_errf(err, errcap, "cannot sync folder %s: %s", dir, strerror(errno));
        if (dfd >= 0)
            close(dfd);
        return GROVE_ERR_IO;
    }
    close(dfd);
    return GROVE_OK;
}

/* The atomic write; lockfd != NULL: the new file is flocked before it appears at path. */
static int write_atomic(const char *path, const uint8_t *buf, size_t len, mode_t mode, int flags,
                        int *lockfd, char *err, size_t errcap)
{
    static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    static unsigned counter;
    if (path == NULL || (buf == NULL && len > 0))
        return GROVE_ERR_INVALID_ARG;
    grove_file_remove_stale_temps(path);
    pthread_mutex_lock(&mu);
    unsigned n = counter++;
    pthread_mutex_unlock(&mu);
    char tmp[PATH_MAX];
    int l = snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%u", path, (long)getpid(), n);
    if (l < 0 || (size_t)l >= sizeof tmp) {
        grove_errf(err, errcap, "%s: path too long", path);
        return GROVE_ERR_IO;
    }
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, mode);
    if (fd < 0) {
        grove_errf(err, errcap, "cannot create %s: %s", tmp, strerror(errno));
        return GROVE_ERR_IO;
    }
    if ((lockfd != NULL && flock(fd, LOCK_EX | LOCK_NB) != 0) ||
        grove_file_write_all(fd, buf, len) != 0 || fsync(fd) != 0) {
        grove_errf(err, errcap, "cannot write %s: %s", tmp, strerror(errno));
        if (flags & GROVE_FILE_SECRET)
            wipe_fd(fd, (off_t)len);
        close(fd);
        unlink(tmp);
        return GROVE_ERR_IO;
    }
    if (lockfd == NULL && close(fd) != 0) {
        grove_errf(err, errcap, "cannot write %s: %s", tmp, strerror(errno));
        drop_temp(tmp, flags, len);
        return GROVE_ERR_IO;
    }
    int rc = GROVE_OK;
    if (flags & GROVE_FILE_NO_REPLACE) {
        if (link(tmp, path) != 0) {
            int e = errno;
            drop_temp(tmp, flags, len);
            if (e == EEXIST) {
                grove_errf(err, errcap, "%s already exists (refusing to overwrite it)", path);
                rc = GROVE_ERR_EXISTS;
            } else {
                grove_errf(err, errcap, "cannot create %s: %s", path, strerror(e));
                rc = GROVE_ERR_IO;
            }
        } else {
            unlink(tmp);
        }
    } else if (rename(tmp, path) != 0) {
        grove_errf(err, errcap, "cannot replace %s: %s", path, strerror(errno));
        drop_temp(tmp, flags, len);
        rc = GROVE_ERR_IO;
    }
    if (rc == GROVE_OK)
        rc = sync_dir(path, err, errcap);
    if (lockfd != NULL) {
        if (rc == GROVE_OK)
            *lockfd = fd;
        else
            close(fd);
    }
    return rc;
}

grove_status grove_file_write_atomic(const char *path, const uint8_t *buf, size_t len, mode_t mode,
                            int flags, char *err, size_t errcap)
{
    return write_atomic(path, buf, len, mode, flags, NULL, err, errcap);
}

grove_status grove_file_write_atomic_locked(const char *path, const uint8_t *buf, size_t len, mode_t mode,
                                   int flags, int *lockfd, char *err, size_t errcap)
{
    if (lockfd == NULL)
        return GROVE_ERR_INVALID_ARG;
    *lockfd = -1;
    return write_atomic(path, buf, len, mode, flags, lockfd, err, errcap);
}

static int open_locked(const char *path, int oflags, int wait, int *out, char *err,
                       size_t errcap)
{
    for (int tries = 0; tries < 1000; tries++) {
        int fd = open(path, oflags | O_CLOEXEC, 0600);
        if (fd < 0) {
            grove_errf(err, errcap, "cannot open %s: %s", path, strerror(errno));
            return errno == ENOENT ? GROVE_ERR_NOT_FOUND : GROVE_ERR_IO;
        }
        while (flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0) {
            if (errno == EINTR)
                continue;
            int e = errno;
            close(fd);
            if (e == EWOULDBLOCK) {
                grove_errf(err, errcap, "%s is in use by another process", path);
                return GROVE_ERR_STATE;
            }
            grove_errf(err, errcap, "cannot lock %s: %s", path, strerror(e));
            return GROVE_ERR_IO;
        }
        struct stat a, b;
        if (fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev &&
            a.st_ino == b.st_ino) {
            *out = fd;
            return GROVE_OK;
        }
        close(fd); /* replaced by the writer we waited for: lock the new file */
    }
    grove_errf(err, errcap, "cannot lock %s: it keeps being replaced", path);
    return GROVE_ERR_IO;
}

grove_status grove_file_open_locked(const char *path, int oflags, int *fd, char *err, size_t errcap)
{
    if (path == NULL || fd == NULL)
        return GROVE_ERR_INVALID_ARG;
    *fd = -1;
    return open_locked(path, oflags, 1, fd, err, errcap);
}

grove_status grove_file_try_locked(const char *path, int oflags, int *fd, char *err, size_t errcap)
{
    if (path == NULL || fd == NULL)
        return GROVE_ERR_INVALID_ARG;
    *fd = -1;
    return open_locked(path, oflags, 0, fd, err, errcap);
}

/* Reads fd to its end without keeping the data; 1 when more than maxlen bytes arrive in all
 * (n already read), 0 at the end of the input or on a read error. */
static int drain_over(int fd, size_t n, size_t maxlen)
{
    uint8_t sink[16384];
    int over = n > maxlen;
    while (!over) {
        ssize_t r = read(fd, sink, sizeof sink);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        over = (size_t)r > maxlen - n;
        n += (size_t)r;
    }
    grove_wipe(sink, sizeof sink);
    return over;
}

grove_status grove_file_read_fd(int fd, size_t maxlen, uint8_t **buf, size_t *len)
{
    if (buf == NULL || len == NULL)
        return GROVE_ERR_INVALID_ARG;
    *buf = NULL;
    *len = 0;
    /* a regular file's size is known: refuse an oversized one (counting from the current
     * offset) before reading anything */
    struct stat sb;
    off_t pos = 0;
    if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && (pos = lseek(fd, 0, SEEK_CUR)) >= 0 &&
        sb.st_size > pos && (uint64_t)(sb.st_size - pos) > (uint64_t)maxlen)
        return GROVE_ERR_ENCODING;
    size_t cap = maxlen < 4096 ? maxlen + 1 : 4096, n = 0;
    uint8_t *b = malloc(cap);
    if (b == NULL)
        return GROVE_ERR_NOMEM;
    for (;;) {
        if (n == cap) {
            if (cap > maxlen)
                break;
            size_t ncap = cap > maxlen / 2 ? maxlen + 1 : cap * 2;
            uint8_t *nb = malloc(ncap);
            if (nb == NULL) {
                grove_wipe(b, n);
                free(b);
                /* Out of memory before the limit was reached (a 32-bit address space cannot
                 * always hold the old and the new buffer): the input is failed anyway, so read
                 * on without keeping it to tell "too large" from "no memory". */
                return drain_over(fd, n, maxlen) ? GROVE_ERR_ENCODING : GROVE_ERR_NOMEM;
            }
            memcpy(nb, b, n);
            grove_wipe(b, n);
            free(b);
            b = nb;
            cap = ncap;
        }
        ssize_t r = read(fd, b + n, cap - n);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            int e = errno;
            grove_wipe(b, n);
            free(b);
            errno = e;
            return GROVE_ERR_IO;
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    if (n > maxlen) {
        grove_wipe(b, n);
        free(b);
        return GROVE_ERR_ENCODING;
    }
    *buf = b;
    *len = n;
    return GROVE_OK;
}

grove_status grove_file_mkdirs(const char *dir, mode_t mode, char *err, size_t errcap)
{
    char tmp[PATH_MAX];
    int l = snprintf(tmp, sizeof tmp, "%s", dir);
    if (l <= 0 || (size_t)l >= sizeof tmp) {
        grove_errf(err, errcap, "folder path too long or empty");
        return GROVE_ERR_INVALID_ARG;
    }
    for (char *s = tmp + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(tmp, mode) != 0 && errno != EEXIST) {
            grove_errf(err, errcap, "cannot create %s: %s", tmp, strerror(errno));
            return GROVE_ERR_IO;
        }
        *s = '/';
    }
    if (mkdir(tmp, mode) != 0 && errno != EEXIST) {
        grove_errf(err, errcap, "cannot create %s: %s", tmp, strerror(errno));
        return GROVE_ERR_IO;
    }
    struct stat sb;
    if (stat(tmp, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        grove_errf(err, errcap, "%s is not a folder", tmp);
        return GROVE_ERR_IO;
    }
    return GROVE_OK;
}

/* Overwrite an open file's first `size` bytes with zeros (it may hold a secret key). */
static void wipe_fd(int fd, off_t size)
{
    static const uint8_t zero[4096];
    off_t done = 0;
    while (done < size) {
        size_t n = (size_t)(size - done) < sizeof zero ? (size_t)(size - done) : sizeof zero;
        ssize_t w = pwrite(fd, zero, n, done);
        if (w <= 0) {
            if (w < 0 && errno == EINTR)
                continue;
            return;
        }
        done += w;
    }
    (void)fsync(fd);
}

/* "<digits>" or "<digits>.<digits>" (a pid, then an optional counter): the pid, else -1. */
static long temp_suffix_pid(const char *s)
{
    long pid = 0;
    const char *q = s;
    for (; *q >= '0' && *q <= '9'; q++) {
        pid = pid * 10 + (*q - '0');
        if (pid > 0x3fffffffL)
            return -1;
    }
    if (q == s || pid <= 0)
        return -1;
    if (*q == '.') {
        const char *r = ++q;
        while (*q >= '0' && *q <= '9')
            q++;
        if (q == r)
            return -1;
    }
    return *q == '\0' ? pid : -1;
}

size_t grove_file_remove_stale_temps(const char *path)
{
    char dir[PATH_MAX];
    grove_file_dirname(path, dir, sizeof dir);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t bl = strlen(base), removed = 0;
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0)
        return 0;
    DIR *d = fdopendir(dfd);
    if (d == NULL) {
        close(dfd);
        return 0;
    }
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        const char *name = de->d_name;
        if (strncmp(name, base, bl) != 0 || strncmp(name + bl, ".tmp.", 5) != 0)
            continue;
        long pid = temp_suffix_pid(name + bl + 5);
        /* only files of writers that no longer run: never a live writer's file */
        if (pid < 0 || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        struct stat sb, fb;
        if (fstatat(dfd, name, &sb, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(sb.st_mode) ||
            sb.st_uid != geteuid())
            continue;
        int fd = openat(dfd, name, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
        if (fd < 0)
            continue;
        /* the file opened must be the one checked (not replaced in between) */
        if (fstat(fd, &fb) == 0 && S_ISREG(fb.st_mode) && fb.st_dev == sb.st_dev &&
            fb.st_ino == sb.st_ino && fb.st_uid == geteuid()) {
            /* overwrite (it may hold a secret) unless the file has another name: a writer
             * killed between link(tmp, path) and unlink(tmp) left the real file's second name */
            if (fb.st_nlink == 1)
                wipe_fd(fd, fb.st_size);
            if (unlinkat(dfd, name, 0) == 0)
                removed++;
        }
        close(fd);
    }
    closedir(d);
    return removed;
}
