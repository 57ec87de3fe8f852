// glibc's allocator controls (malloc_trim), which Swift's Glibc module does not export.
#ifndef COMET_CMALLOC_H
#define COMET_CMALLOC_H
#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>
#endif
#endif
