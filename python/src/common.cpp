// SPDX-License-Identifier: BSD-3-Clause
// The shared pieces of the extension (common.hpp): errors, argument conversions, arrays
// through the buffer protocol and numpy views of hympi-owned memory.
#include "common.hpp"

#include <nanobind/ndarray.h>

#include <bit>
#include <climits>
#include <cstring>

namespace hympy {

using namespace nb::literals;

void check(int code) {
  if (code == HYMPI_SUCCESS) return;
  const char* message = hympi_last_error_message();
  throw Error(message && *message ? message : hympi_error_string(code));
}

namespace {

nb::module_ numpy() { return nb::module_::import_("numpy"); }

std::string python_type_name(nb::handle obj) { return nb::type_name(obj.type()).c_str(); }

/// str(obj)
std::string text_of(nb::handle obj) { return nb::str(obj).c_str(); }

/// The element types by their numpy names, which are their names in hympi/names.h.
constexpr Member kDatatypes[] = {HYMPI_DATATYPES(HYMPY_MEMBER)};

/// The hympi type of a buffer's struct-module format and item size; false when unsupported.
bool type_of_format(const char* format, Py_ssize_t itemsize, hympi_datatype* type) {
  const char* f = format ? format : "B";
  if (*f == '@' || *f == '=' || (*f == '<' && std::endian::native == std::endian::little)) ++f;
  if (std::strlen(f) != 1) return false;
  switch (*f) {
    case 'd': *type = HYMPI_FLOAT64; return itemsize == 8;
    case 'f': *type = HYMPI_FLOAT32; return itemsize == 4;
    case 'b': case 'h': case 'i': case 'l': case 'q':
      if (itemsize == 4) *type = HYMPI_INT32;
      else if (itemsize == 8) *type = HYMPI_INT64;
      else return false;
      return true;
    default: return false;
  }
}

}  // namespace

hympi_op to_op(const OpArg& op) {
  if (auto* value = std::get_if<hympi_op>(&op)) return *value;
  return from_name<hympi_op>(std::get<std::string>(op), {HYMPI_OPS(HYMPY_MEMBER)}, "op");
}

hympi_stencil to_stencil(const StencilArg& stencil) {
  if (auto* value = std::get_if<hympi_stencil>(&stencil)) return *value;
  hympi_stencil result;
  check(hympi_stencil_from_name(std::get<std::string>(stencil).c_str(), &result));
  return result;
}

hympi_halo_mode to_mode(const ModeArg& mode) {
  if (auto* value = std::get_if<hympi_halo_mode>(&mode)) return *value;
  return from_name<hympi_halo_mode>(std::get<std::string>(mode), {HYMPI_HALO_MODES(HYMPY_MEMBER)}, "halo mode");
}

const char* numpy_name(hympi_datatype type) {
  for (const Member& t : kDatatypes)
    if (t.value == type) return t.name;
  return "unknown";
}

std::size_t size_of(hympi_datatype type) { return type == HYMPI_FLOAT32 || type == HYMPI_INT32 ? 4 : 8; }

hympi_datatype to_datatype(nb::handle dtype) {
  hympi_datatype type;
  if (nb::try_cast(dtype, type)) return type;
  const std::string name = nb::cast<std::string>(numpy().attr("dtype")(dtype).attr("name"));
  for (const Member& t : kDatatypes)
    if (name == t.name) return static_cast<hympi_datatype>(t.value);
  throw nb::type_error(("hympi: dtype " + name + " is not supported (float64, float32, int32 or int64)").c_str());
}

std::vector<int64_t> to_int64s(nb::handle ids, const std::string& what) {
  nb::object array = numpy().attr("asarray")(ids);
  if (nb::cast<int>(array.attr("ndim")) != 1)
    throw nb::type_error(("hympi: " + what + " must be a 1-D sequence of integers").c_str());
  if (nb::len(array) == 0) return {};
  const std::string kind = nb::cast<std::string>(array.attr("dtype").attr("kind"));
  if (kind != "i" && kind != "u")
    throw nb::type_error(
        ("hympi: " + what + " must hold integers (got dtype " + text_of(nb::object(array.attr("dtype"))) + ")").c_str());
  if (kind == "u" && nb::cast<uint64_t>(array.attr("max")()) > uint64_t(INT64_MAX))
    throw Error("hympi: " + what + " holds a value beyond int64");
  ArrayRef values(numpy().attr("ascontiguousarray")(array, "dtype"_a = "int64"), what, false);
  const auto* data = static_cast<const int64_t*>(values.data());
  return std::vector<int64_t>(data, data + values.count());
}

std::vector<int> to_ints(nb::handle ids, const std::string& what) {
  std::vector<int> result;
  for (int64_t value : to_int64s(ids, what)) {
    if (value < INT_MIN || value > INT_MAX)
      throw Error("hympi: " + what + " holds " + std::to_string(value) + ", beyond the range of int");
    result.push_back(static_cast<int>(value));
  }
  return result;
}

nb::object int_array(const int* values, std::size_t count) {
  auto* copy = new std::vector<int>(values, values + count);
  nb::capsule owner(copy, [](void* p) noexcept { delete static_cast<std::vector<int>*>(p); });
  const std::size_t shape[1] = {count};
  return nb::cast(nb::ndarray<nb::numpy, int>(copy->data(), 1, shape, owner));
}

ArrayRef::ArrayRef(nb::handle obj, const std::string& what, bool writable) : what_(what) {
  if (!PyObject_CheckBuffer(obj.ptr()))
    throw nb::type_error(("hympi: " + what + " must be a numpy array (got " + python_type_name(obj) + ")").c_str());
  if (PyObject_GetBuffer(obj.ptr(), &view_, PyBUF_RECORDS_RO) != 0) throw nb::python_error();
  held_ = true;
  try {
    if (!type_of_format(view_.format, view_.itemsize, &type_)) {
      const std::string dtype = nb::hasattr(obj, "dtype") ? text_of(nb::object(obj.attr("dtype")))
                                                          : "format '" + std::string(view_.format ? view_.format : "B") + "'";
      throw nb::type_error(("hympi: " + what + " has element type " + dtype +
                            "; hympi moves float64, float32, int32 and int64").c_str());
    }
    if (!PyBuffer_IsContiguous(&view_, 'C'))
      throw Error("hympi: " + what + " is not C-contiguous (a strided view such as a[::2] or a.T); hympi "
                  "reads and writes arrays in place: pass a contiguous array");
    if (writable && view_.readonly)
      throw Error("hympi: " + what + " is read-only; pass a writable array");
    count_ = static_cast<std::size_t>(view_.len / view_.itemsize);
  } catch (...) {
    PyBuffer_Release(&view_);
    throw;
  }
}

ArrayRef::ArrayRef(ArrayRef&& other) noexcept
    : view_(other.view_), held_(other.held_), type_(other.type_), count_(other.count_), what_(std::move(other.what_)) {
  other.held_ = false;
}

ArrayRef::~ArrayRef() {
  if (held_) PyBuffer_Release(&view_);
}

void ArrayRef::expect_type(hympi_datatype type, const std::string& whose) const {
  if (type != type_)
    throw nb::type_error(("hympi: " + what_ + " has dtype " + numpy_name(type_) + " but " + whose + " dtype is " +
                          numpy_name(type)).c_str());
}

void ArrayRef::expect_count(std::size_t count, const std::string& why) const {
  if (count != count_)
    throw Error("hympi: " + what_ + " has " + std::to_string(count_) + " elements; expected " + std::to_string(count) +
                " (" + why + ")");
}

nb::object numpy_view(void* data, std::size_t count, hympi_datatype type, nb::handle owner, bool readonly) {
  nb::dlpack::dtype dtype;
  switch (type) {
    case HYMPI_FLOAT64: dtype = nb::dtype<double>(); break;
    case HYMPI_FLOAT32: dtype = nb::dtype<float>(); break;
    case HYMPI_INT32: dtype = nb::dtype<int32_t>(); break;
    case HYMPI_INT64: dtype = nb::dtype<int64_t>(); break;
  }
  if (count == 0) {  // no memory to share (data may be NULL): a new empty array
    nb::object empty = numpy().attr("empty")(0, numpy_name(type));
    empty.attr("flags").attr("writeable") = !readonly;
    return empty;
  }
  const std::size_t shape[1] = {count};
  if (readonly) return nb::cast(nb::ndarray<nb::numpy, nb::ro>(data, 1, shape, owner, nullptr, dtype));
  return nb::cast(nb::ndarray<nb::numpy>(data, 1, shape, owner, nullptr, dtype));
}

}  // namespace hympy
