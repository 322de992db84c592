// SPDX-License-Identifier: BSD-3-Clause
// hympi.set_message_handler(): where hympi's own messages go from Python (xSDK M11). The
// library's messages and the binding's own (an object Python dropped that failed to free)
// all pass through the C library's one handler (hympi_emit_message), so one call here
// redirects or silences every one of them.
//
// Invariants:
//  - None sets the C handler to NULL and default_message_handler sets the C default:
//    neither ever runs Python code, so they hold even while the interpreter shuts down.
//  - A Python callable is called with the GIL (PyGILState_Ensure). Every hympi call that
//    can block releases the GIL (context.hpp, without_gil), so a message emitted on
//    another thread (the watchdog's) gets it; while the interpreter finalizes, messages go
//    to stderr instead of into Python.
//  - Every callable ever set keeps one reference for the life of the process: another
//    thread may be inside it when a new one replaces it (a handful per process).
#include "bindings.hpp"
#include "common.hpp"
#include "context.hpp"

namespace hympy {
namespace {

using namespace nb::literals;

void call_python(const char* message, void* callable) {
  if (python_finalizing()) return hympi_default_message_handler(message, nullptr);
  const PyGILState_STATE state = PyGILState_Ensure();
  PyObject* result = PyObject_CallFunction(static_cast<PyObject*>(callable), "s", message);
  if (result) Py_DECREF(result);
  else PyErr_WriteUnraisable(static_cast<PyObject*>(callable));  // a handler's error must not escape a destructor
  PyGILState_Release(state);
}

void default_handler(const char* message) { hympi_default_message_handler(message, nullptr); }

}  // namespace

void bind_messages(nb::module_& m) {
  m.def("default_message_handler", &default_handler, "message"_a,
        "Writes a message and a newline to stderr: where hympi's messages go unless set_message_handler "
        "chose otherwise.");
  m.def(
      "set_message_handler",
      [](nb::object handler) {
        if (handler.is_none()) return hympi_set_message_handler(nullptr, nullptr);
        if (handler.is(nb::module_::import_("hympi._hympi").attr("default_message_handler")))
          return hympi_set_message_handler(&hympi_default_message_handler, nullptr);
        if (!PyCallable_Check(handler.ptr()))
          throw Error("hympi: set_message_handler takes a callable(message: str), None (silence) or "
                      "hympi.default_message_handler (stderr), not " + std::string(nb::type_name(handler.type()).c_str()));
        hympi_set_message_handler(&call_python, handler.release().ptr());  // the reference is kept for good
      },
      "handler"_a.none(),
      "Where hympi's own messages go (its warnings, e.g. a Halo freed between begin and end, and its last "
      "words before it ends the job; errors are raised, never printed): handler(message) for each, None "
      "silences them, default_message_handler (stderr) is the default. Process-wide.");
}

}  // namespace hympy
