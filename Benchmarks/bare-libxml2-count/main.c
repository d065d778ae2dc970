/* The floor for any libxml2-based plist reader: a SAX2 push parse of the file, in the same
   256 KiB chunks PlistReader uses, that only counts <string> start tags and builds nothing.
   Usage: bare-libxml2-count FILE REPEATS  ->  prints "<best seconds> <count> <peak KiB>" */
#include <libxml/parser.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void on_start(void *ctx, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri, int nns,
                     const xmlChar **ns, int nattr, int ndef, const xmlChar **attrs) {
    (void)prefix; (void)uri; (void)nns; (void)ns; (void)nattr; (void)ndef; (void)attrs;
    if (strcmp((const char *)name, "string") == 0) (*(long *)ctx)++;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static long peak_kib(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = 0;
    while (f && fgets(line, sizeof line, f)) if (sscanf(line, "VmHWM: %ld kB", &kib) == 1) break;
    if (f) fclose(f);
    return kib;
}

static long count_once(const char *path) {
    enum { CHUNK = 256 * 1024 };
    static char buffer[CHUNK];
    xmlSAXHandler sax;
    memset(&sax, 0, sizeof sax);
    sax.initialized = XML_SAX2_MAGIC;
    sax.startElementNs = on_start;
    long count = 0;
    int fd = open(path, O_RDONLY);
    if (fd < 0) { perror(path); exit(2); }
    ssize_t n = read(fd, buffer, CHUNK);
    xmlParserCtxtPtr ctxt = xmlCreatePushParserCtxt(&sax, &count, buffer, n > 4 ? 4 : (int)n, path);
    xmlCtxtUseOptions(ctxt, XML_PARSE_NONET);
    if (n > 4) xmlParseChunk(ctxt, buffer + 4, (int)(n - 4), 0);
    while ((n = read(fd, buffer, CHUNK)) > 0) xmlParseChunk(ctxt, buffer, (int)n, 0);
    xmlParseChunk(ctxt, NULL, 0, 1);
    if (ctxt->myDoc) xmlFreeDoc(ctxt->myDoc);
    xmlFreeParserCtxt(ctxt);
    close(fd);
    return count;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: bare-libxml2-count FILE [REPEATS]\n"); return 64; }
    int repeats = argc > 2 ? atoi(argv[2]) : 1;
    xmlInitParser();
    double best = 1e30;
    long count = 0;
    for (int i = 0; i < repeats; i++) {
        double start = now();
        count = count_once(argv[1]);
        double elapsed = now() - start;
        if (elapsed < best) best = elapsed;
    }
    printf("%.6f %ld %ld\n", best, count, peak_kib());
    return 0;
}
