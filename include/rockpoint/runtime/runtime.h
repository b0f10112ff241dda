// rockpoint's graph runtime: include this for StateGraph, CompiledGraph and
// the run / inspection types. See graph.h and compiled_graph.h.
#pragma once

#include "rockpoint/runtime/channels.h"
#include "rockpoint/runtime/compiled_graph.h"
#include "rockpoint/runtime/graph.h"
#include "rockpoint/runtime/run_types.h"
