// Fixed-width integers for kernels compiled by NVRTC at run time, which has no C library headers,
// and by nvcc (the tests' compile check), which has.
#pragma once
#ifdef __CUDACC_RTC__
typedef signed char int8_t;
typedef int int32_t;
typedef long long int64_t;
typedef unsigned char uint8_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
#define INT64_MAX 0x7fffffffffffffffll
#define INT64_MIN (-INT64_MAX - 1)
#else
#include <stdint.h>
#endif

#define FULL_WARP 0xffffffffu
