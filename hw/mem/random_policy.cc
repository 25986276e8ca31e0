#include "hw/mem/random_policy.h"
// Header-only policy; this file keeps the one-file-pair-per-policy layout.
