// SPDX-License-Identifier: BSD-3-Clause
// The PetscSF type "hympi" (include/hympi_petsc.h): its operations table and its
// registration. At set-up it makes an inner PetscSF of type basic on the same graph, and
// that is all: the SF starts on basic. Once it has run -sf_hympi_after broadcasts that
// hympi could move, with none outstanding, it reads its graph into hympi's terms and makes
// the hympi side (petsc/sf_exchange.hpp); the Context of its communicator is made then,
// the first time. So a scatter used a handful of times costs what basic costs.
// From then on, a broadcast with MPI_REPLACE on host memory of a unit hympi moves
// (petsc/unit.hpp) runs through hympi; everything else (other operations, reductions,
// fetch-and-op, device memory, other units, a broadcast begun while another of its unit is
// outstanding: petsc/sf_exchange.hpp, graphs beyond int ids, graphs with a leaf listed
// twice) runs on the inner SF. The decisions depend on what every rank of the SF passes
// alike (unit, op, its broadcasts' order), so all ranks take the same path; the one
// exception is the memory type, which a rank without roots and leaves reports as host:
// with device arrays on the other ranks, use basic.
// A copy of the SF with its graph (VecScatterCopy) is of type basic, which PETSc may
// remap (duplicate, below).
#include <petsc/private/sfimpl.h>

#include <exception>
#include <memory>
#include <optional>
#include <string>

#include "halo/strategies.hpp"
#include "hympi_petsc.h"
#include "petsc/context_cache.hpp"
#include "petsc/sf_graph.hpp"

namespace hympi::petsc {
namespace {

// Broadcasts on basic before the switch to hympi (-sf_hympi_after): BENCHMARKS.md, "A short
// PETSc run's VecScatter".
constexpr PetscInt kDefaultAfter = 100;

struct SfHympi {
  Strategy strategy = Strategy::shm;
  PetscInt after = kDefaultAfter;
  PetscSF inner = nullptr;  // basic, same graph: what hympi does not move
  // On basic until `after` broadcasts hympi could move; then hympi's, or basic's for good.
  enum class Stage { basic, hympi, basic_for_good } stage = Stage::basic;
  PetscInt movable = 0;            // broadcasts hympi could have moved, while on basic
  PetscInt outstanding_inner = 0;  // broadcasts begun on basic and not ended, while on basic
  std::unique_ptr<SfExchange> exchange;  // at Stage::hympi
};

SfHympi& data(PetscSF sf) { return *static_cast<SfHympi*>(sf->data); }

HympiPetscCounts g_counts{};  // this process's, since HympiPetscInitialize

/// Runs `f`, turning a hympi::Error into a PETSc error on the SF's communicator.
template <class F>
PetscErrorCode guarded(PetscSF sf, F f) {
  try {
    return f();
  } catch (const std::exception& e) {
    SETERRQ(PetscObjectComm((PetscObject)sf), PETSC_ERR_LIB, "%s", e.what());
  }
}

/// My leaves grouped by root rank (PetscSFSetUpRanks) are `inner`'s arrays, not a second
/// copy (that was 8 % of a short scatter's cost): PETSc's generic PetscSFGetRootRanks and
/// PetscSFView read them from the SF's own fields. Null unhooks them (reset(), before
/// PETSc's reset would free them and the inner SF goes with its own).
void share_root_ranks(PetscSF sf, PetscSF inner) {
  sf->nranks = inner ? inner->nranks : -1;
  sf->ndranks = inner ? inner->ndranks : 0;
  sf->ranks = inner ? inner->ranks : nullptr;
  sf->roffset = inner ? inner->roffset : nullptr;
  sf->rmine = inner ? inner->rmine : nullptr;
  sf->rremote = inner ? inner->rremote : nullptr;
}

PetscErrorCode set_up(PetscSF sf) {
  SfHympi& h = data(sf);
  MPI_Comm comm = PetscObjectComm((PetscObject)sf);
  PetscInt nroots, nleaves;
  const PetscInt* ilocal;
  const PetscSFNode* iremote;

  PetscFunctionBegin;
  PetscCall(PetscSFGetGraph(sf, &nroots, &nleaves, &ilocal, &iremote));
  PetscCall(PetscSFCreate(comm, &h.inner));
  PetscCall(PetscSFSetType(h.inner, PETSCSFBASIC));
  h.inner->allow_multi_leaves = sf->allow_multi_leaves;
  h.inner->rankorder = sf->rankorder;
  PetscCall(PetscSFSetGraph(h.inner, nroots, nleaves, const_cast<PetscInt*>(ilocal), PETSC_COPY_VALUES,
                            const_cast<PetscSFNode*>(iremote), PETSC_COPY_VALUES));
  PetscCall(PetscSFSetUp(h.inner));
  share_root_ranks(sf, h.inner);
  // The switch happens at the same broadcast on every rank only with the same settings:
  // options that differ between ranks (PETSC_OPTIONS, a per-rank options file) are an
  // error on every rank here, not a hang at the switch.
  PetscInt mine[4] = {h.after, -h.after, PetscInt(h.strategy), -PetscInt(h.strategy)};
  PetscCallMPI(MPIU_Allreduce(MPI_IN_PLACE, mine, 4, MPIU_INT, MPI_MAX, comm));
  PetscCheck(mine[0] == -mine[1], comm, PETSC_ERR_ARG_INCOMP,
             "hympi: -sf_hympi_after differs between ranks (from %" PetscInt_FMT " to %" PetscInt_FMT
             "): give every rank the same value",
             -mine[1], mine[0]);
  PetscCheck(mine[2] == -mine[3], comm, PETSC_ERR_ARG_INCOMP,
             "hympi: -sf_hympi_strategy differs between ranks (%s on some, %s on others): give every rank the same",
             name_of(Strategy(-mine[3])), name_of(Strategy(mine[2])));
  h.stage = SfHympi::Stage::basic;
  h.movable = h.outstanding_inner = 0;
  PetscFunctionReturn(0);
}

/// Collective (every rank reaches it at the same broadcast): hympi's side, or basic for good
/// when some rank's graph is beyond hympi.
PetscErrorCode switch_to_hympi(PetscSF sf) {
  SfHympi& h = data(sf);
  MPI_Comm comm = PetscObjectComm((PetscObject)sf);
  SfGraph graph;
  PetscBool moves;

  PetscFunctionBegin;
  PetscCall(read_graph(sf, h.inner, &graph, &moves));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &moves, 1, MPIU_BOOL, MPI_LAND, comm));  // every rank, or none
  h.stage = moves ? SfHympi::Stage::hympi : SfHympi::Stage::basic_for_good;
  if (moves)
    PetscCall(guarded(sf, [&] {
      bool made = false;
      Context& context = context_of(comm, &made);
      g_counts.contexts += made;
      h.exchange = std::make_unique<SfExchange>(context, std::move(graph), h.strategy);
      return PetscErrorCode(0);
    }));
  PetscFunctionReturn(0);
}

PetscErrorCode reset(PetscSF sf) {
  SfHympi& h = data(sf);

  PetscFunctionBegin;
  PetscCheck(!h.exchange || !h.exchange->busy(), PetscObjectComm((PetscObject)sf), PETSC_ERR_ARG_WRONGSTATE,
             "PetscSF hympi: a broadcast has not been ended (PetscSFBcastEnd) before the SF is reset or destroyed");
  h.exchange.reset();  // collective, as PetscSFReset is
  share_root_ranks(sf, nullptr);
  PetscCall(PetscSFDestroy(&h.inner));
  PetscFunctionReturn(0);
}

PetscErrorCode destroy(PetscSF sf) {
  PetscFunctionBegin;
  PetscCall(reset(sf));
  delete &data(sf);
  sf->data = nullptr;
  PetscFunctionReturn(0);
}

PetscErrorCode set_from_options(PetscSF sf, PetscOptionItems* PetscOptionsObject) {
  SfHympi& h = data(sf);
  char name[64];
  PetscBool set;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "PetscSF hympi options");
  PetscCall(PetscOptionsString("-sf_hympi_strategy", "hympi ghost-update strategy of the broadcasts", "HympiPetscInitialize",
                               name_of(h.strategy), name, sizeof name, &set));
  PetscCall(PetscOptionsRangeInt("-sf_hympi_after", "broadcasts on basic before hympi's set-up", "HympiPetscInitialize",
                                 h.after, &h.after, nullptr, 0, PETSC_MAX_INT));
  PetscOptionsHeadEnd();
  if (set)
    PetscCall(guarded(sf, [&] {
      const Strategy s = strategy_from_name(name);
      if (!halo::info(s).private_vectors)
        throw Error(std::string("hympi: -sf_hympi_strategy ") + name +
                    " reads the senders' arrays from hympi's own shared memory; PETSc owns rootdata: "
                    "use shm, flat_mpi, neighbor, aggregated, aggregated_odm, automatic or an RMA strategy");
      h.strategy = s;
      return PetscErrorCode(0);
    }));
  PetscFunctionReturn(0);
}

PetscErrorCode view(PetscSF sf, PetscViewer viewer) {
  SfHympi& h = data(sf);
  PetscBool ascii;

  PetscFunctionBegin;
  // What basic's view prints first (the multi-SF's order; its pattern for other viewers):
  // a program's output reads the same on either type but for the type's name and the line
  // below (PETSc's own SF tests compare it: tests/suites/petsc).
  if (h.inner)
    PetscCall(h.inner->ops->View(h.inner, viewer));
  PetscViewerFormat format;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  PetscCall(PetscViewerGetFormat(viewer, &format));
  if (ascii && !h.inner && format != PETSC_VIEWER_ASCII_MATLAB)
    PetscCall(PetscViewerASCIIPrintf(viewer, "  MultiSF sort=%s\n", sf->rankorder ? "rank-order" : "unordered"));
  const char* where = !sf->setupcalled                                    ? "(not set up)"
                      : h.stage == SfHympi::Stage::hympi                  ? "through hympi"
                      : h.stage == SfHympi::Stage::basic_for_good         ? "through basic (a graph beyond hympi)"
                                                                          : "through basic until the switch";
  if (ascii)
    PetscCall(PetscViewerASCIIPrintf(viewer,
                                     "  hympi strategy %s, after %" PetscInt_FMT
                                     " broadcasts; broadcasts of double, float, PetscInt units %s\n",
                                     name_of(h.exchange ? h.exchange->strategy() : h.strategy), h.after, where));
  PetscFunctionReturn(0);
}

/// A copy with the graph (VecScatterCopy: a DMDA's local-to-local scatter, a duplicated
/// matrix's) is of type basic: PETSc may remap it in place (VecScatterRemap), which it
/// allows on basic and neighbor only, and DMLocalToLocal does. Other copies (the multi-SF,
/// the inverse and embedded SFs PETSc derives) stay hympi, with this SF's options.
PetscErrorCode duplicate(PetscSF sf, PetscSFDuplicateOption option, PetscSF newsf) {
  PetscFunctionBegin;
  if (option == PETSCSF_DUPLICATE_GRAPH) {
    PetscCall(PetscSFSetType(newsf, PETSCSFBASIC));
    PetscFunctionReturn(0);
  }
  data(newsf).strategy = data(sf).strategy;
  data(newsf).after = data(sf).after;
  PetscFunctionReturn(0);
}

/// The unit, when hympi moves broadcasts of `unit` with `op`.
std::optional<Unit> movable_unit(MPI_Datatype unit, MPI_Op op) {
  if (op != MPI_REPLACE) return std::nullopt;
  return unit_of(unit);
}

PetscErrorCode bcast_begin(PetscSF sf, MPI_Datatype unit, PetscMemType rootmtype, const void* rootdata,
                           PetscMemType leafmtype, void* leafdata, MPI_Op op) {
  SfHympi& h = data(sf);
  const std::optional<Unit> u = movable_unit(unit, op);

  PetscFunctionBegin;
  if (u && h.stage == SfHympi::Stage::basic && h.outstanding_inner == 0 && ++h.movable > h.after)
    PetscCall(switch_to_hympi(sf));
  if (u && h.stage == SfHympi::Stage::hympi) {
    bool started = false;
    PetscCall(guarded(sf, [&] {
      started = h.exchange->begin(*u, rootdata, leafdata, PetscMemTypeHost(rootmtype) && PetscMemTypeHost(leafmtype));
      return PetscErrorCode(0);
    }));
    if (started) {
      ++g_counts.bcasts_hympi;
      PetscFunctionReturn(0);
    }
  }
  ++g_counts.bcasts_basic;
  PetscCall((*h.inner->ops->BcastBegin)(h.inner, unit, rootmtype, rootdata, leafmtype, leafdata, op));
  if (h.stage == SfHympi::Stage::basic) ++h.outstanding_inner;
  PetscFunctionReturn(0);
}

PetscErrorCode bcast_end(PetscSF sf, MPI_Datatype unit, const void* rootdata, void* leafdata, MPI_Op op) {
  SfHympi& h = data(sf);
  const std::optional<Unit> u = movable_unit(unit, op);

  PetscFunctionBegin;
  if (u && h.stage == SfHympi::Stage::hympi) {
    bool ended = false;
    PetscCall(guarded(sf, [&] {
      ended = h.exchange->end(*u, rootdata, leafdata);
      return PetscErrorCode(0);
    }));
    if (ended) PetscFunctionReturn(0);
  }
  PetscCall((*h.inner->ops->BcastEnd)(h.inner, unit, rootdata, leafdata, op));
  if (h.stage == SfHympi::Stage::basic && h.outstanding_inner > 0) --h.outstanding_inner;
  PetscFunctionReturn(0);
}

PetscErrorCode reduce_begin(PetscSF sf, MPI_Datatype unit, PetscMemType leafmtype, const void* leafdata,
                            PetscMemType rootmtype, void* rootdata, MPI_Op op) {
  PetscSF inner = data(sf).inner;
  ++g_counts.reduces_basic;
  return (*inner->ops->ReduceBegin)(inner, unit, leafmtype, leafdata, rootmtype, rootdata, op);
}

PetscErrorCode reduce_end(PetscSF sf, MPI_Datatype unit, const void* leafdata, void* rootdata, MPI_Op op) {
  PetscSF inner = data(sf).inner;
  return (*inner->ops->ReduceEnd)(inner, unit, leafdata, rootdata, op);
}

PetscErrorCode fetch_and_op_begin(PetscSF sf, MPI_Datatype unit, PetscMemType rootmtype, void* rootdata,
                                  PetscMemType leafmtype, const void* leafdata, void* leafupdate, MPI_Op op) {
  PetscSF inner = data(sf).inner;
  ++g_counts.fetch_and_ops_basic;
  return (*inner->ops->FetchAndOpBegin)(inner, unit, rootmtype, rootdata, leafmtype, leafdata, leafupdate, op);
}

PetscErrorCode fetch_and_op_end(PetscSF sf, MPI_Datatype unit, void* rootdata, const void* leafdata, void* leafupdate,
                                MPI_Op op) {
  PetscSF inner = data(sf).inner;
  return (*inner->ops->FetchAndOpEnd)(inner, unit, rootdata, leafdata, leafupdate, op);
}

PetscErrorCode get_leaf_ranks(PetscSF sf, PetscInt* niranks, const PetscMPIInt** iranks, const PetscInt** ioffset,
                              const PetscInt** irootloc) {
  return PetscSFGetLeafRanks(data(sf).inner, niranks, iranks, ioffset, irootloc);
}

PetscErrorCode create(PetscSF sf) {
  PetscFunctionBegin;
  sf->ops->SetUp = set_up;
  sf->ops->Reset = reset;
  sf->ops->Destroy = destroy;
  sf->ops->SetFromOptions = set_from_options;
  sf->ops->View = view;
  sf->ops->Duplicate = duplicate;
  sf->ops->BcastBegin = bcast_begin;
  sf->ops->BcastEnd = bcast_end;
  sf->ops->ReduceBegin = reduce_begin;
  sf->ops->ReduceEnd = reduce_end;
  sf->ops->FetchAndOpBegin = fetch_and_op_begin;
  sf->ops->FetchAndOpEnd = fetch_and_op_end;
  sf->ops->GetLeafRanks = get_leaf_ranks;
  sf->data = new SfHympi;
  PetscFunctionReturn(0);
}

bool g_registered = false;

PetscErrorCode finalize() {
  PetscFunctionBegin;
  PetscCall(release_held_communicator());
  free_context_key();
  g_registered = false;  // PetscFinalize empties PETSc's type list
  PetscFunctionReturn(0);
}

}  // namespace
}  // namespace hympi::petsc

PetscErrorCode HympiPetscInitialize(void) {
  using namespace hympi::petsc;

  PetscFunctionBegin;
  if (g_registered) PetscFunctionReturn(0);
  try {
    create_context_key();
  } catch (const std::exception& e) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "%s", e.what());
  }
  PetscCall(PetscSFRegister(PETSCSFHYMPI, create));
  PetscCall(PetscRegisterFinalize(finalize));
  g_registered = true;
  g_counts = {};
  PetscFunctionReturn(0);
}

PetscErrorCode HympiPetscGetCounts(HympiPetscCounts* counts) {
  PetscFunctionBegin;
  PetscValidPointer(counts, 1);
  *counts = hympi::petsc::g_counts;
  PetscFunctionReturn(0);
}
