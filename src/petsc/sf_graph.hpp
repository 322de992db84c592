// SPDX-License-Identifier: BSD-3-Clause
// Reads a PetscSF's graph into hympi's terms (petsc/sf_exchange.hpp, SfGraph): for each
// other rank, the roots it reads (in the order of its leaves) and my leaves it fills; my
// own edges apart. Roots referenced by several leaves are sent several times.
#pragma once

#include <petsc/private/sfimpl.h>

#include "petsc/sf_exchange.hpp"

namespace hympi::petsc {

/// `sf`: the SF being set up; `inner`: a set-up PetscSF of type basic on the same graph
/// (its root ranks: my leaves grouped by the rank of their roots; its leaf ranks: who
/// reads my roots, in the order of their leaves). False in
/// `usable` when hympi cannot express this rank's graph: a count beyond int ids, or a leaf
/// index listed twice (PetscSF allows that where allow_multi_leaves is set, as every
/// VecScatter sets it; a broadcast then writes one leaf twice).
PetscErrorCode read_graph(PetscSF sf, PetscSF inner, SfGraph* graph, PetscBool* usable);

}  // namespace hympi::petsc
