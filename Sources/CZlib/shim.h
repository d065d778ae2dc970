#ifndef IAPCATALOG_CZLIB_SHIM_H
#define IAPCATALOG_CZLIB_SHIM_H
/* zlib's gz* functions read App Store Connect's .txt.gz reports, and plain files unchanged. */
#include <zlib.h>
#endif
