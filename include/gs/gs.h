// The whole public API of gs: DirectML's gather and scatter operators on the CPU.
#pragma once

#include "gs/compiled_operator.h"
#include "gs/cpu.h"
#include "gs/operators.h"
#include "gs/status.h"
#include "gs/tensor.h"
