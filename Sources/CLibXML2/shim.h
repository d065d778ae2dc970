#ifndef IAPCATALOG_CLIBXML2_SHIM_H
#define IAPCATALOG_CLIBXML2_SHIM_H
#if defined(__APPLE__)
/* macOS: the SDK keeps libxml2's headers under usr/include/libxml2 and describes them with its own
   `libxml2` module map (usr/include/libxml2/module.modulemap), so they are named from the SDK's
   usr/include, with no pkg-config and no -I flag; clang turns these includes into imports of that
   module. The SDK's libxml2 has no ICU clash with Foundation on Darwin. */
#include <libxml2/libxml/xmlversion.h>
#include <libxml2/libxml/parser.h>
#include <libxml2/libxml/parserInternals.h>
#include <libxml2/libxml/SAX2.h>
#include <libxml2/libxml/xmlerror.h>
#else
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
#endif
