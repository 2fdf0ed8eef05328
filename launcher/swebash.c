/* The installed `swebash` command: a launcher that keeps argv[0].
 *
 * login, sshd and `su -` start a login shell with argv[0] "-swebash"; that leading "-" is how a
 * shell learns it is a login shell. A Python console script cannot see it: the kernel starts the
 * interpreter with the script's path instead. So `make install` compiles this file, with the
 * venv's interpreter fixed in SWEBASH_PYTHON, over the console script, and it runs
 *
 *     SWEBASH_PYTHON -P -c "from swebash.cli import launch; launch()" ARGV0 ARGS...
 *
 * (-P: the current directory is not put on sys.path). Nothing else happens here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef SWEBASH_PYTHON
#error "build with -DSWEBASH_PYTHON='\"/path/to/venv/bin/python\"' (see the Makefile)"
#endif

int main(int argc, char **argv) {
    char **args = calloc((size_t)argc + 5, sizeof *args);
    if (args == NULL) {
        perror("swebash");
        return 127;
    }
    int n = 0;
    args[n++] = SWEBASH_PYTHON;
    args[n++] = "-P";
    args[n++] = "-c";
    args[n++] = "from swebash.cli import launch; launch()";
    args[n++] = argc > 0 ? argv[0] : "swebash";
    for (int i = 1; i < argc; i++)
        args[n++] = argv[i];
    args[n] = NULL;
    execv(SWEBASH_PYTHON, args);
    fprintf(stderr, "swebash: cannot run %s: %s\n", SWEBASH_PYTHON, strerror(errno));
    return 127;
}
