// SPDX-License-Identifier: BSD-3-Clause
// The names of the public element types and reduction operations (hympi/types.hpp).
#include "core/name_table.hpp"
#include "hympi/types.hpp"

namespace hympi {
namespace {

constexpr core::Named<Datatype> kDatatypes[] = {
    {Datatype::float64, "double"}, {Datatype::float32, "float"}, {Datatype::int32, "int32"}, {Datatype::int64, "int64"}};
constexpr core::Named<Op> kOps[] = {{Op::sum, "sum"}, {Op::prod, "prod"}, {Op::min, "min"}, {Op::max, "max"}};

}  // namespace

const char* name_of(Datatype type) { return core::name_in(kDatatypes, type, "unknown-type"); }
const char* name_of(Op op) { return core::name_in(kOps, op, "unknown-op"); }

}  // namespace hympi
