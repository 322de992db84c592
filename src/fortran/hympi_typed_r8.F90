! SPDX-License-Identifier: BSD-3-Clause
! The element-type generic procedures of the hympi module for real(c_double): the template
! hympi_typed.inc with the element type below.
#define HYMPI_T real(c_double)
#define HYMPI_DT HYMPI_FLOAT64
module hympi_typed_r8
#include "hympi_typed.inc"
end module hympi_typed_r8
