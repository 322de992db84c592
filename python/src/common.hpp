// SPDX-License-Identifier: BSD-3-Clause
// What every part of the extension shares: the C API's error path (hympi.Error), the
// conversions of Python arguments (enum or name, numpy dtype, integer id arrays), arrays
// seen zero-copy through the buffer protocol, and numpy views of hympi-owned memory.
//
// Errors: a nonzero return of the C API raises hympi.Error with hympi_last_error_message()
// (collective errors arrive on every rank with the same message); an argument of the
// wrong Python type or element type raises TypeError; any other bad argument (shape,
// contiguity, writability, a closed object) raises hympi.Error. All before any
// communication when the binding detects them.
#pragma once

#include <Python.h>
#include <hympi.h>
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/variant.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace hympy {

namespace nb = nanobind;

/// Thrown by the binding, raised in Python as hympi.Error (a RuntimeError).
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Raises hympi.Error with the C API's message when `code` is not HYMPI_SUCCESS.
void check(int code);

/// A row of a list of hympi/names.h as a member of a Python enum: its name and C value.
struct Member {
  const char* name;
  int value;
};
#define HYMPY_MEMBER(name, constant, value) ::hympy::Member{#name, value},

/// The Python enum `name` over C enumeration CEnum, its members from a list of
/// hympi/names.h: bind_enum<hympi_op>(m, "Op", doc, {HYMPI_OPS(HYMPY_MEMBER)}). A member
/// named as a Python keyword gets a trailing underscore (WaitPolicy.yield_).
template <class CEnum, std::size_t N>
void bind_enum(nb::module_& m, const char* name, const char* doc, const Member (&members)[N]) {
  nb::enum_<CEnum> bound(m, name, doc);
  const nb::object keyword = nb::module_::import_("keyword").attr("iskeyword");
  for (const Member& member : members) {
    const std::string python_name = member.name + std::string(nb::cast<bool>(keyword(member.name)) ? "_" : "");
    bound.value(python_name.c_str(), static_cast<CEnum>(member.value));
  }
}

/// The value of CEnum whose member of `members` (a list of hympi/names.h) is named `name`;
/// hympi.Error listing the valid names for any other (`what` says what they name).
template <class CEnum, std::size_t N>
CEnum from_name(const std::string& name, const Member (&members)[N], const char* what) {
  std::string valid;
  for (const Member& member : members) {
    if (name == member.name) return static_cast<CEnum>(member.value);
    valid += (valid.empty() ? "" : ", ") + std::string(member.name);
  }
  throw Error("hympi: unknown " + std::string(what) + " '" + name + "' (valid: " + valid + ")");
}

/// Arguments given as an enum member or by name ("sum", "shm", "star5", "buffers").
using OpArg = std::variant<hympi_op, std::string>;
using StrategyArg = std::variant<hympi_strategy, std::string>;
using StencilArg = std::variant<hympi_stencil, std::string>;
using ModeArg = std::variant<hympi_halo_mode, std::string>;
hympi_op to_op(const OpArg& op);
hympi_stencil to_stencil(const StencilArg& stencil);
hympi_halo_mode to_mode(const ModeArg& mode);

/// hympi.Datatype, or anything numpy.dtype() accepts (numpy.float64, "float32", ...).
hympi_datatype to_datatype(nb::handle dtype);
/// The numpy name of a type ("float64", ...), as Python users spell it.
const char* numpy_name(hympi_datatype type);
std::size_t size_of(hympi_datatype type);

/// A 1-D sequence or array of integers as int (int64_t), range-checked; TypeError for
/// anything else. `what` names the argument in messages.
std::vector<int> to_ints(nb::handle ids, const std::string& what);
std::vector<int64_t> to_int64s(nb::handle ids, const std::string& what);
/// A new 1-D numpy int32 array holding `values`.
nb::object int_array(const int* values, std::size_t count);

/// An object's memory through the buffer protocol (numpy arrays and anything exporting
/// a buffer), held until this is destroyed, so the object can neither go away nor be
/// resized meanwhile. Never copies.
class ArrayRef {
 public:
  /// TypeError unless `obj` exports a buffer of float64, float32, int32 or int64;
  /// hympi.Error unless it is C-contiguous and, with `writable`, writable.
  ArrayRef(nb::handle obj, const std::string& what, bool writable);
  ArrayRef(ArrayRef&& other) noexcept;
  ArrayRef& operator=(ArrayRef&&) = delete;
  ~ArrayRef();

  void* data() const { return view_.buf; }
  std::size_t count() const { return count_; }
  hympi_datatype type() const { return type_; }
  bool readonly() const { return view_.readonly != 0; }
  nb::handle object() const { return view_.obj; }

  /// TypeError unless the element type is `type` (`whose` says where it comes from).
  void expect_type(hympi_datatype type, const std::string& whose) const;
  /// hympi.Error unless it holds `count` elements (`why` explains the count).
  void expect_count(std::size_t count, const std::string& why) const;

 private:
  Py_buffer view_{};
  bool held_ = false;
  hympi_datatype type_ = HYMPI_FLOAT64;
  std::size_t count_ = 0;
  std::string what_;
};

/// A 1-D numpy array over `count` elements of hympi-owned memory at `data`; `owner`
/// is kept alive as long as the array or any view of it exists. `count` 0: a new empty
/// array (nothing to share).
nb::object numpy_view(void* data, std::size_t count, hympi_datatype type, nb::handle owner, bool readonly);

}  // namespace hympy
