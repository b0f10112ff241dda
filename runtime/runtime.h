// rockpoint's graph runtime: include this for StateGraph, CompiledGraph and
// the run / inspection types. See graph.h and compiled_graph.h.
#pragma once

#include "runtime/channels.h"
#include "runtime/compiled_graph.h"
#include "runtime/graph.h"
#include "runtime/run_types.h"
