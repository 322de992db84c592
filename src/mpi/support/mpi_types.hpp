// SPDX-License-Identifier: BSD-3-Clause
// hympi's element types and operations as MPI handles.
#pragma once

#include <mpi.h>

#include "hympi/types.hpp"

namespace hympi::mpi {

inline MPI_Datatype mpi_type(Datatype type) {
  switch (type) {
    case Datatype::float64: return MPI_DOUBLE;
    case Datatype::float32: return MPI_FLOAT;
    case Datatype::int32: return MPI_INT32_T;
    case Datatype::int64: return MPI_INT64_T;
  }
  return MPI_DATATYPE_NULL;
}

inline MPI_Op mpi_op(Op op) {
  switch (op) {
    case Op::sum: return MPI_SUM;
    case Op::prod: return MPI_PROD;
    case Op::min: return MPI_MIN;
    case Op::max: return MPI_MAX;
  }
  return MPI_OP_NULL;
}

}  // namespace hympi::mpi
