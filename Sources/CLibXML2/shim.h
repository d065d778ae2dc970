#ifndef IAPCATALOG_CLIBXML2_SHIM_H
#define IAPCATALOG_CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
/* Debian builds libxml2 with ICU; its <unicode/*.h> clash with Foundation's own ICU module
   ('UErrorCode' has different definitions). We never use the encoding-handler struct whose
   layout this flag changes, so hide the ICU part of the headers. */
#ifdef LIBXML_ICU_ENABLED
#undef LIBXML_ICU_ENABLED
#endif
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#endif
