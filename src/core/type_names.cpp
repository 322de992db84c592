// SPDX-License-Identifier: BSD-3-Clause
// The names of the public element types and reduction operations (hympi/types.hpp): an
// element type is printed as its C type, an operation by its name in hympi/names.h.
#include "core/name_table.hpp"
#include "hympi/types.hpp"

namespace hympi {
namespace {

constexpr core::Named<Datatype> kDatatypes[] = {
    {Datatype::float64, "double"}, {Datatype::float32, "float"}, {Datatype::int32, "int32"}, {Datatype::int64, "int64"}};
constexpr auto kOps = core::name_table<Op>({HYMPI_OPS(HYMPI_ROW)});

}  // namespace

const char* name_of(Datatype type) { return core::name_in(kDatatypes, type, "unknown-type"); }
const char* name_of(Op op) { return core::name_in(kOps, op, "unknown-op"); }

}  // namespace hympi
