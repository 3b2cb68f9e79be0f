#ifndef LUCID_CSODIUM_SHIM_H
#define LUCID_CSODIUM_SHIM_H
#include <sodium.h>
#endif
