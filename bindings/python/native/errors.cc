#include "native/errors.h"

#include <Python.h>

namespace rockpoint::py {
namespace {

const char* ClassName(StatusCode code) {
  switch (code) {
    case StatusCode::kInvalidArgument:
      return "InvalidArgumentError";
    case StatusCode::kNotFound:
      return "NotFoundError";
    case StatusCode::kBusy:
      return "BusyError";
    case StatusCode::kCorruption:
      return "CorruptionError";
    case StatusCode::kIOError:
      return "StorageIOError";
    case StatusCode::kAborted:
      return "ClosedError";
    case StatusCode::kNotSupported:
      return "NotSupportedError";
    case StatusCode::kOk:
      break;
  }
  return "RockpointError";
}

void Translate(const std::exception_ptr& p, void*) {
  try {
    std::rethrow_exception(p);
  } catch (const EngineError& e) {
    try {
      nb::object errors =
          nb::module_::import_("langgraph.checkpoint.rockpoint.errors");
      nb::object cls = errors.attr(ClassName(e.status().code()));
      nb::object error = cls(nb::str(e.status().message().c_str()));
      PyErr_SetObject(cls.ptr(), error.ptr());
    } catch (nb::python_error& inner) {
      inner.restore();
    }
  }
}

}  // namespace

void RegisterErrors() { nb::register_exception_translator(&Translate); }

}  // namespace rockpoint::py
