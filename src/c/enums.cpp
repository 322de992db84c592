// SPDX-License-Identifier: BSD-3-Clause
// The C enumerations: their values checked and mapped to the C++ enumerations (the same
// values, asserted below), and their names (those of the C++ API and HYMPI_* variables).
#include <string>

#include "c/c_api.hpp"

namespace hympi::c {
namespace {

static_assert(HYMPI_FLOAT64 == int(Datatype::float64) && HYMPI_FLOAT32 == int(Datatype::float32) &&
              HYMPI_INT32 == int(Datatype::int32) && HYMPI_INT64 == int(Datatype::int64));
static_assert(HYMPI_SUM == int(Op::sum) && HYMPI_PROD == int(Op::prod) && HYMPI_MIN == int(Op::min) &&
              HYMPI_MAX == int(Op::max));
static_assert(HYMPI_STRATEGY_SHM == int(Strategy::shm) && HYMPI_STRATEGY_SHM_DIRECT == int(Strategy::shm_direct) &&
              HYMPI_STRATEGY_FLAT_MPI == int(Strategy::flat_mpi) && HYMPI_STRATEGY_NEIGHBOR == int(Strategy::neighbor) &&
              HYMPI_STRATEGY_RMA_FENCE == int(Strategy::rma_fence) &&
              HYMPI_STRATEGY_RMA_PSCW == int(Strategy::rma_pscw) &&
              HYMPI_STRATEGY_RMA_LOCK == int(Strategy::rma_lock) &&
              HYMPI_STRATEGY_RMA_LOCK_TARGET == int(Strategy::rma_lock_target) &&
              HYMPI_STRATEGY_AGGREGATED == int(Strategy::aggregated) &&
              HYMPI_STRATEGY_AGGREGATED_ODM == int(Strategy::aggregated_odm) &&
              HYMPI_STRATEGY_AUTOMATIC == int(Strategy::automatic));
static_assert(HYMPI_MODE_VECTORS == int(HaloMode::vectors) && HYMPI_MODE_BUFFERS == int(HaloMode::buffers));
static_assert(HYMPI_STENCIL_STAR5 == int(Stencil::star5) && HYMPI_STENCIL_BOX9 == int(Stencil::box9) &&
              HYMPI_STENCIL_STAR7 == int(Stencil::star7) && HYMPI_STENCIL_STAR19 == int(Stencil::star19) &&
              HYMPI_STENCIL_BOX27 == int(Stencil::box27));

/// The C++ name of C enumeration argument `value` (one of `count` values 0 .. count-1), or
/// "unknown".
template <class E, class CEnum>
const char* name_if_valid(const CEnum& value, int count) {
  const int v = raw(value);
  return v >= 0 && v < count ? name_of(E(v)) : "unknown";
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
  return Datatype(checked_range(raw(type), HYMPI_FLOAT64, HYMPI_INT64, argument, "HYMPI_FLOAT64 .. HYMPI_INT64"));
}
Op to_op(const hympi_op& op, const char* argument) {
  return Op(checked_range(raw(op), HYMPI_SUM, HYMPI_MAX, argument, "HYMPI_SUM .. HYMPI_MAX"));
}
Datatype as_datatype(const hympi_datatype& type) {
  const int64_t v = raw(type);
  return Datatype(v >= HYMPI_FLOAT64 && v <= HYMPI_INT64 ? v : 255);
}
Op as_op(const hympi_op& op) {
  const int64_t v = raw(op);
  return Op(v >= HYMPI_SUM && v <= HYMPI_MAX ? v : 255);
}
Strategy to_strategy(const hympi_strategy& strategy, const char* argument) {
  return Strategy(checked_range(raw(strategy), HYMPI_STRATEGY_SHM, HYMPI_STRATEGY_AUTOMATIC, argument,
                                "HYMPI_STRATEGY_SHM .. HYMPI_STRATEGY_AUTOMATIC"));
}
Stencil to_stencil(const hympi_stencil& stencil, const char* argument) {
  return Stencil(checked_range(raw(stencil), HYMPI_STENCIL_STAR5, HYMPI_STENCIL_BOX27, argument,
                               "HYMPI_STENCIL_STAR5 .. HYMPI_STENCIL_BOX27"));
}
HaloMode to_mode(const hympi_halo_mode& mode, const char* argument) {
  return HaloMode(checked_range(raw(mode), HYMPI_MODE_VECTORS, HYMPI_MODE_BUFFERS, argument,
                                "HYMPI_MODE_VECTORS .. HYMPI_MODE_BUFFERS"));
}

}  // namespace hympi::c

using hympi::c::name_if_valid;

extern "C" {

const char* hympi_strategy_name(hympi_strategy strategy) {
  return name_if_valid<hympi::Strategy>(strategy, HYMPI_STRATEGY_AUTOMATIC + 1);
}
const char* hympi_stencil_name(hympi_stencil stencil) {
  return name_if_valid<hympi::Stencil>(stencil, HYMPI_STENCIL_BOX27 + 1);
}
const char* hympi_datatype_name(hympi_datatype type) { return name_if_valid<hympi::Datatype>(type, HYMPI_INT64 + 1); }
const char* hympi_op_name(hympi_op op) { return name_if_valid<hympi::Op>(op, HYMPI_MAX + 1); }

int hympi_strategy_from_name(const char* name, hympi_strategy* strategy) {
  return hympi::c::guard(__func__, [&] { hympi::c::parse_name(name, strategy, &hympi::strategy_from_name); });
}
int hympi_stencil_from_name(const char* name, hympi_stencil* stencil) {
  return hympi::c::guard(__func__, [&] { hympi::c::parse_name(name, stencil, &hympi::stencil_from_name); });
}

}  // extern "C"
