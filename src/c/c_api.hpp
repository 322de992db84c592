// SPDX-License-Identifier: BSD-3-Clause
// What the files of the C API (include/hympi.h) share: the handle types, which own the
// C++ objects, and the helpers every function runs through: guard() (no exception crosses
// the API; each becomes an error code and the thread's last message), require() (NULL
// handles and pointers), checked_range() and checked_enum() (numbers, flags and enum values
// coming from C) and free_handle().
//
// Invariant: an argument error (ArgumentError, HYMPI_ERR_ARGUMENT) of a local call, or of a
// collective one whose handle gives no communicator, is thrown before any communication,
// so it leaves the other ranks where they were; a collective set-up's argument errors go
// through check_collectively, to every rank of it; errors of collective calls come from
// the C++ API as hympi::Error, on every rank at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "core/function_ref.hpp"
#include "hympi.h"
#include "hympi/hympi.hpp"

// The handles (opaque in hympi.h): heap objects holding the C++ objects.
struct hympi_context_s {
  hympi::Context context;
};
struct hympi_pattern_s {
  hympi::Pattern pattern;
};
struct hympi_halo_s {
  hympi::Halo halo;
  hympi::Datatype type;  // the pattern's: the element type of its buffers and shared fields
};
struct hympi_grid_s {
  hympi::CartesianGrid grid;
};
struct hympi_node_shared_s {
  hympi::detail::NodeSharedMemory memory;
  hympi::Datatype type;
  bool writing = false;  // between a successful begin_write and its end_write
};

namespace hympi::c {

/// An argument only this rank sees is wrong (a NULL pointer, an unknown enum value or
/// name): HYMPI_ERR_ARGUMENT, the message prefixed with the C function's name.
class ArgumentError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Runs `body`: HYMPI_SUCCESS, or the code of what it threw (ArgumentError: ARGUMENT,
/// hympi::Error: USAGE, std::bad_alloc: NO_MEMORY, anything else: INTERNAL) with its
/// message stored as the calling thread's last error. `function`: the C function's name.
int guard(const char* function, core::FunctionRef<void()> body) noexcept;

/// `parse(name)` (a C++ name parser, e.g. hympi::strategy_from_name); a NULL name (the
/// argument `argument`) or an unknown one is an ArgumentError, the latter listing the valid
/// names.
template <class Parse>
auto from_name(Parse parse, const char* name, const char* argument) {
  if (!name) throw ArgumentError(std::string("argument '") + argument + "' is NULL");
  try {
    return parse(name);
  } catch (const Error& e) {
    throw ArgumentError(e.what());
  }
}

/// The argument checks of a collective set-up, run on `comm` before the C++ set-up whose
/// agreement is named `setup` ("Halo"): when `checks` throws (an ArgumentError, or a
/// hympi::Error of this rank alone such as a malformed HYMPI_* variable), this rank joins
/// that agreement with the reason (mpi::refuse_setup), so the ranks already inside the
/// set-up return the error too: HYMPI_ERR_ARGUMENT, the same message on every rank.
void check_collectively(const char* function, MPI_Comm comm, const char* setup, core::FunctionRef<void()> checks);

/// *pointer, or ArgumentError naming `argument` when `pointer` is NULL.
template <class T>
T& require(T* pointer, const char* argument) {
  if (!pointer) throw ArgumentError(std::string("argument '") + argument + "' is NULL");
  return *pointer;
}

/// `pointer`, which may be NULL only when it points to `count` == 0 elements.
template <class T>
T* require_array(T* pointer, std::size_t count, const char* argument) {
  if (!pointer && count > 0)
    throw ArgumentError(std::string("argument '") + argument + "' is NULL but has " + std::to_string(count) +
                        " element(s)");
  return pointer;
}

/// `value` if it lies in lo .. hi, else ArgumentError naming `argument` and the valid
/// range (`valid` says what the values are, e.g. "HYMPI_SUM .. HYMPI_MAX").
int64_t checked_range(int64_t value, int64_t lo, int64_t hi, const char* argument, const char* valid);

/// An enumeration's C constants as text, in order, from its list in hympi/names.h:
///   constexpr const char* kOps[] = {HYMPI_OPS(HYMPI_C_CONSTANT)};
#define HYMPI_C_CONSTANT(name, constant, value) #constant,

/// `value` as E if it is one of `constants` (whose values are 0 .. N-1, as in every list of
/// hympi/names.h), else ArgumentError naming `argument` and the valid range.
template <class E, std::size_t N>
E checked_enum(int64_t value, const char* const (&constants)[N], const char* argument) {
  if (value < 0 || value >= int64_t(N))
    checked_range(value, 0, int64_t(N) - 1, argument, (std::string(constants[0]) + " .. " + constants[N - 1]).c_str());
  return E(value);
}

/// The int a C caller passed as an enumeration argument. C may pass any int there, and in
/// C++ reading a value outside the enumerators' range as the enumeration type is undefined
/// (UBSan reports it), so the argument is read as the int it is, by reference.
template <class CEnum>
int raw(const CEnum& value) {
  static_assert(std::is_enum_v<CEnum> && sizeof(CEnum) == sizeof(int));
  int v;
  std::memcpy(&v, &value, sizeof v);
  return v;
}

/// A C enumeration argument, range-checked, as the C++ enumeration with the same values.
Datatype to_datatype(const hympi_datatype& type, const char* argument = "type");
/// A collective's type or op for the C++ call, unchecked: a value outside the enumeration
/// stays outside it, and the collective then fails on every rank naming this one.
Datatype as_datatype(const hympi_datatype& type);
Op as_op(const hympi_op& op);
Op to_op(const hympi_op& op, const char* argument = "op");
Strategy to_strategy(const hympi_strategy& strategy, const char* argument = "strategy");
Stencil to_stencil(const hympi_stencil& stencil, const char* argument = "stencil");
HaloMode to_mode(const hympi_halo_mode& mode, const char* argument = "mode");

/// Options from C, every field checked (ArgumentError naming it), and back.
Options to_options(const hympi_options& options);
hympi_options from_options(const Options& options);

/// Calls f(static_cast<T*>(nullptr)) with T the element type of `type`: the C++ API's
/// typed accessors (Halo buffers, shared fields) from a run-time Datatype.
template <class F>
decltype(auto) visit_type(Datatype type, F&& f) {
  switch (type) {
    case Datatype::float64: return f(static_cast<double*>(nullptr));
    case Datatype::float32: return f(static_cast<float*>(nullptr));
    case Datatype::int32: return f(static_cast<int32_t*>(nullptr));
    case Datatype::int64: return f(static_cast<int64_t*>(nullptr));
  }
  throw std::logic_error("hympi: visit_type: unknown Datatype");
}

/// *_free(&h): deletes the handle's object (collective where its destructor is) and sets
/// h to NULL; a NULL h is allowed, a NULL &h is an argument error.
template <class Handle>
void free_handle(Handle** handle, const char* argument) {
  delete std::exchange(require(handle, argument), nullptr);
}

}  // namespace hympi::c
