#pragma once
// npu::Error lives in the base library; this header keeps existing includes working.
#include "base/error.h"
