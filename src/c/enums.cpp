// SPDX-License-Identifier: BSD-3-Clause
// The C enumerations: their values checked and mapped to the C++ enumerations (both made
// from the same lists of hympi/names.h, so their values agree), and their names (those of
// the C++ API and HYMPI_* variables).
#include <iterator>
#include <string>

#include "c/c_api.hpp"

namespace hympi::c {
namespace {

constexpr const char* kDatatypes[] = {HYMPI_DATATYPES(HYMPI_C_CONSTANT)};
constexpr const char* kOps[] = {HYMPI_OPS(HYMPI_C_CONSTANT)};
constexpr const char* kStrategies[] = {HYMPI_STRATEGIES(HYMPI_C_CONSTANT)};
constexpr const char* kStencils[] = {HYMPI_STENCILS(HYMPI_C_CONSTANT)};
constexpr const char* kModes[] = {HYMPI_HALO_MODES(HYMPI_C_CONSTANT)};

/// The C++ name of C enumeration argument `value` (one of the values 0 .. std::size(constants)
/// - 1), or "unknown".
template <class E, class CEnum, std::size_t N>
const char* name_if_valid(const CEnum& value, const char* const (&)[N]) {
  const int v = raw(value);
  return v >= 0 && v < int(N) ? name_of(E(v)) : "unknown";
}

/// The value named `name` (by `parse`, the C++ API's parser) as a C enumeration value; an
/// unknown name is an argument error listing the valid ones.
template <class CEnum, class Parse>
void parse_name(const char* name, CEnum* value, Parse parse) {
  CEnum& out = require(value, "result");
  out = CEnum(from_name(parse, name, "name"));
}

}  // namespace

int64_t checked_range(int64_t value, int64_t lo, int64_t hi, const char* argument, const char* valid_values) {
  if (value < lo || value > hi)
    throw ArgumentError(std::string("argument '") + argument + "' is " + std::to_string(value) + "; valid: " +
                        std::to_string(lo) + " .. " + std::to_string(hi) + " (" + valid_values + ")");
  return value;
}

Datatype to_datatype(const hympi_datatype& type, const char* argument) {
  return checked_enum<Datatype>(raw(type), kDatatypes, argument);
}
Op to_op(const hympi_op& op, const char* argument) { return checked_enum<Op>(raw(op), kOps, argument); }
Datatype as_datatype(const hympi_datatype& type) {
  const int64_t v = raw(type);
  return Datatype(v >= 0 && v < int64_t(std::size(kDatatypes)) ? v : 255);
}
Op as_op(const hympi_op& op) {
  const int64_t v = raw(op);
  return Op(v >= 0 && v < int64_t(std::size(kOps)) ? v : 255);
}
Strategy to_strategy(const hympi_strategy& strategy, const char* argument) {
  return checked_enum<Strategy>(raw(strategy), kStrategies, argument);
}
Stencil to_stencil(const hympi_stencil& stencil, const char* argument) {
  return checked_enum<Stencil>(raw(stencil), kStencils, argument);
}
HaloMode to_mode(const hympi_halo_mode& mode, const char* argument) {
  return checked_enum<HaloMode>(raw(mode), kModes, argument);
}

}  // namespace hympi::c

using hympi::c::name_if_valid;

extern "C" {

const char* hympi_strategy_name(hympi_strategy strategy) {
  return name_if_valid<hympi::Strategy>(strategy, hympi::c::kStrategies);
}
const char* hympi_stencil_name(hympi_stencil stencil) {
  return name_if_valid<hympi::Stencil>(stencil, hympi::c::kStencils);
}
const char* hympi_datatype_name(hympi_datatype type) {
  return name_if_valid<hympi::Datatype>(type, hympi::c::kDatatypes);
}
const char* hympi_op_name(hympi_op op) { return name_if_valid<hympi::Op>(op, hympi::c::kOps); }

int hympi_strategy_from_name(const char* name, hympi_strategy* strategy) {
  return hympi::c::guard(__func__, [&] { hympi::c::parse_name(name, strategy, &hympi::strategy_from_name); });
}
int hympi_stencil_from_name(const char* name, hympi_stencil* stencil) {
  return hympi::c::guard(__func__, [&] { hympi::c::parse_name(name, stencil, &hympi::stencil_from_name); });
}

}  // extern "C"
