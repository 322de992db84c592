! SPDX-License-Identifier: BSD-3-Clause
! The element-type generic procedures of the hympi module for real(c_float): the template
! hympi_typed.inc with the element type below.
#define HYMPI_T real(c_float)
#define HYMPI_DT HYMPI_FLOAT32
module hympi_typed_r4
#include "hympi_typed.inc"
end module hympi_typed_r4
