! SPDX-License-Identifier: BSD-3-Clause
! The element-type generic procedures of the hympi module for integer(c_int64_t): the template
! hympi_typed.inc with the element type below.
#define HYMPI_T integer(c_int64_t)
#define HYMPI_DT HYMPI_INT64
module hympi_typed_i8
#include "hympi_typed.inc"
end module hympi_typed_i8
