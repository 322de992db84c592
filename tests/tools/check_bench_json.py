#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks a hympi-bench --json file against the schema the report scripts rely on:
the machine record, and per benchmark kind the keys and types of its results.

    tests/tools/check_bench_json.py RUN.json [--expect barrier,allreduce,...] [--peer petsc_sf]
        [--data fresh|cached] [--cache in-cache|off-cache] [--floors write_read,one_copy,...] [--wrong NAME]
        [--sf-types sf_hympi,sf_neighbor,...]

Every timed result is "valid": true; a result "valid": false (wrong values in the warm-up)
carries "wrong": {rank, index} and is allowed only for the implementations given with
--wrong, which must then be wrong in every ghost-update record that has them.
Ghost-update records (halo-contiguous, -gathered, -grid, -mesh, -overlap) say their
"data" (fresh or cached; --data: that one) and a "checksum"; with fresh data and a valid
write_read floor every other valid result has its communication part ("comm_us",
"comm_ratio_to_flat_mpi").
--cache MODE: every allreduce, bcast, reduce and ghost-update record says it was timed in that mode
(off-cache records also give llc_bytes and region_bytes).
--peer NAME: every ghost-update record times NAME (valid).
--floors A,B: every halo-contiguous and halo-gathered record has these floors.
PETSc records (hympi-bench petsc): petsc-ring, -grid and -mesh are ghost-update records of
VecScatters, one implementation per PetscSF type and halo_shm (hympi's Halo without
PETSc); petsc-ksp gives per type the solve's iterations, its VecScatter time and whole
solve per iteration per round, their ratios to sf_basic ("ratio_to_sf_basic",
"solve_ratio_to_sf_basic") and "residual_history_identical", which must be true.
--sf-types A,B: every PETSc record has these types (valid), and the scatter records also
halo_shm.
"""
import argparse
import json
import sys

MACHINE = {"cpu": str, "mpi": str, "ranks": int, "nodes": int, "online_cpus": int, "binding": list,
           "emulated_nodes": bool, "oversubscribed": bool, "options": str}
TIMED = {"implementation": str, "avg_us": float, "min_us": float, "max_us": float, "median_us": float,
         "sd_us": float, "extremes": int, "samples_us": list}
STATS = {"ranks": int, "nodes": int, "internode_messages": int, "internode_bytes": int, "intranode_messages": int,
         "intranode_bytes": int, "node_pair_messages": int, "avg_internode_message": float,
         "avg_node_pair_message": float, "avg_intranode_message": float, "process_grid": list}
LINK = {"latency_us": float, "bandwidth_Bps": float}
ORDERING = {"internode_bytes": int, "internode_messages": int, "node_pair_messages": int, "intranode_bytes": int}
CACHE_MODES = ("in-cache", "off-cache")


def check(record, schema, where, errors):
    for key, kind in schema.items():
        if key not in record:
            errors.append(f"{where}: missing '{key}'")
        elif not isinstance(record[key], (int, float) if kind is float else kind) or (kind is int and isinstance(record[key], bool)):
            errors.append(f"{where}: '{key}' is {type(record[key]).__name__}, expected {kind.__name__}")


COLLECTIVE_KINDS = ("allreduce", "bcast", "reduce")
HALO_KINDS = ("halo-contiguous", "halo-gathered", "halo-grid", "halo-mesh")
PETSC_SCATTER_KINDS = ("petsc-ring", "petsc-grid", "petsc-mesh")
KSP_RESULT = {"implementation": str, "sf_type": str, "iterations": int, "scatters_per_solve": int,
              "residual_history_identical": bool, "scatter_us_per_iteration": list, "solve_us_per_iteration": list,
              "median_scatter_us": float, "median_solve_us": float}
DATA_MODES = ("fresh", "cached")


def check_cache(bench, where, args, errors):
    """"cache" of an allreduce, bcast, reduce or ghost-update record (--cache: that one)."""
    if bench.get("cache") not in CACHE_MODES or (args.cache and bench.get("cache") != args.cache):
        errors.append(f"{where}: cache is {bench.get('cache')!r}, expected {args.cache or ' or '.join(CACHE_MODES)}")
    if bench.get("cache") == "off-cache":
        check(bench, {"llc_bytes": int, "region_bytes": int}, where, errors)


def check_mapping(rows, where, errors):
    """Rows of a mapping table: random, own and mapped order, map_ranks no worse than random."""
    for j, r in enumerate(rows):
        check(r, {"label": str, "ranks": int, "nodes": int, "ranks_per_node": int}, f"{where}.results[{j}]", errors)
        for order in ("random", "own", "mapped"):
            check(r.get(order, {}), ORDERING, f"{where}.results[{j}].{order}", errors)
        if r.get("mapped", {}).get("internode_bytes", 0) > r.get("random", {}).get("internode_bytes", 0):
            errors.append(f"{where}.results[{j}]: map_ranks has more internode bytes than the random order")


def check_ghost_update(bench, kind, where, args, errors):
    """The application-data fields of a ghost-update record (halo-overlap: "data" only)."""
    if bench.get("data") not in DATA_MODES or (args.data and bench.get("data") != args.data):
        errors.append(f"{where}: data is {bench.get('data')!r}, expected {args.data or ' or '.join(DATA_MODES)}")
    check_cache(bench, where, args, errors)
    if kind == "halo-overlap":
        return
    check(bench, {"checksum": str}, where, errors)
    results = bench.get("results", [])
    names = [r.get("implementation") for r in results]
    if kind in ("halo-contiguous", "halo-gathered"):
        for floor in filter(None, args.floors.split(",")):
            if floor not in names:
                errors.append(f"{where}: no floor '{floor}' among {names}")
    for name in args.wrong:
        for j, r in enumerate(results):
            if r.get("implementation") == name and r.get("valid") is not False:
                errors.append(f"{where}.results[{j}]: '{name}' should have been found wrong in the warm-up")
    base = [r for r in results if r.get("implementation") == "write_read" and r.get("valid")]
    if bench.get("data") == "fresh" and base:
        for j, r in enumerate(results):
            if r.get("valid") and r is not base[0]:
                check(r, {"comm_us": float}, f"{where}.results[{j}]", errors)
                if r.get("implementation") != "flat_mpi" and "comm_ratio_to_flat_mpi" not in r:
                    errors.append(f"{where}.results[{j}]: missing 'comm_ratio_to_flat_mpi'")


def check_sf_types(bench, where, args, errors):
    """--sf-types: every PETSc record has these PetscSF types, valid; a scatter record
    (not the KSP solve) also has halo_shm, hympi's Halo without PETSc."""
    valid = [r.get("implementation") for r in bench.get("results", []) if r.get("valid", True)]
    expected = list(filter(None, args.sf_types.split(",")))
    if expected and bench.get("benchmark") != "petsc-ksp":
        expected.append("halo_shm")
    for name in expected:
        if name not in valid:
            errors.append(f"{where}: no valid '{name}' among {valid}")


def check_ksp(bench, where, args, errors):
    """A petsc-ksp record: per type its solve, identical residual histories, ratios to sf_basic."""
    check(bench, {"points": int, "rounds": int, "process_grid": str, "results": list}, where, errors)
    check_sf_types(bench, where, args, errors)
    for j, r in enumerate(bench.get("results", [])):
        at = f"{where}.results[{j}]"
        check(r, KSP_RESULT, at, errors)
        if r.get("residual_history_identical") is not True:
            errors.append(f"{at}: '{r.get('implementation')}' has a residual history unlike sf_basic's")
        if len(r.get("scatter_us_per_iteration", [])) != bench.get("rounds"):
            errors.append(f"{at}: {len(r.get('scatter_us_per_iteration', []))} solves timed, rounds is {bench.get('rounds')}")
        if r.get("implementation") != "sf_basic":
            for ratio in ("ratio_to_sf_basic", "solve_ratio_to_sf_basic"):
                check(r.get(ratio, {}), {"median": float, "q25": float, "q75": float}, f"{at}.{ratio}", errors)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run")
    ap.add_argument("--expect", default="", help="benchmark kinds that must be present, comma-separated")
    ap.add_argument("--peer", action="append", default=[], help="an implementation every ghost-update record has")
    ap.add_argument("--data", choices=DATA_MODES, help="the data mode every ghost-update record must have")
    ap.add_argument("--cache", choices=CACHE_MODES, help="the cache mode every allreduce, bcast, reduce and ghost-update record must have")
    ap.add_argument("--floors", default="", help="floors every halo-contiguous/-gathered record has, comma-separated")
    ap.add_argument("--wrong", action="append", default=[], help="an implementation the warm-up check must reject")
    ap.add_argument("--sf-types", default="", help="PetscSF types (implementations) every PETSc record has, comma-separated")
    args = ap.parse_args()
    with open(args.run) as f:
        run = json.load(f)
    errors = []
    check(run.get("machine", {}), MACHINE, "machine", errors)
    seen = set()
    for i, bench in enumerate(run.get("benchmarks", [])):
        kind = bench.get("benchmark", "?")
        seen.add(kind)
        where = f"benchmarks[{i}] ({kind})"
        if kind in ("barrier", "affinity-allreduce", "setup-context", "setup-halo") + COLLECTIVE_KINDS + HALO_KINDS + PETSC_SCATTER_KINDS:
            check(bench, {"bytes": int, "outer": int, "inner": int, "results": list}, where, errors)
            valid = [r.get("implementation") for r in bench.get("results", []) if r.get("valid")]
            for peer in args.peer:
                if kind in HALO_KINDS and peer not in valid:
                    errors.append(f"{where}: no valid '{peer}' among {valid}")
            if kind in HALO_KINDS + PETSC_SCATTER_KINDS:
                check_ghost_update(bench, kind, where, args, errors)
            if kind in PETSC_SCATTER_KINDS:
                check_sf_types(bench, where, args, errors)
            if kind in COLLECTIVE_KINDS:
                check_cache(bench, where, args, errors)
            for j, r in enumerate(bench.get("results", [])):
                if r.get("valid") is False:
                    check(r, {"implementation": str}, f"{where}.results[{j}]", errors)
                    check(r.get("wrong", {}), {"rank": int, "index": int}, f"{where}.results[{j}].wrong", errors)
                    if r.get("implementation") not in args.wrong:
                        errors.append(f"{where}.results[{j}]: '{r.get('implementation')}' was wrong in the warm-up")
                    continue
                check(r, dict(TIMED, valid=bool), f"{where}.results[{j}]", errors)
                if len(r.get("samples_us", [])) != bench.get("outer"):
                    errors.append(f"{where}.results[{j}]: {len(r.get('samples_us', []))} samples, outer is {bench.get('outer')}")
            if kind in ("halo-grid", "halo-mesh"):
                live = {k: v for k, v in STATS.items() if k != "process_grid"}
                check(bench.get("statistics", {}), live, where + ".statistics", errors)
                check(bench.get("links", {}), {"memcpy_Bps": float}, where + ".links", errors)
                for link in ("inter", "intra"):
                    if link in bench.get("links", {}):
                        check(bench["links"][link], LINK, f"{where}.links.{link}", errors)
        elif kind == "petsc-ksp":
            check_ksp(bench, where, args, errors)
        elif kind == "stats":
            for j, r in enumerate(bench.get("results", [])):
                check(r, STATS, f"{where}.results[{j}]", errors)
        elif kind == "apps":
            for app, by_strategy in bench.get("results", {}).items():
                for strategy, rounds in by_strategy.items():
                    for j, r in enumerate(rounds):
                        check(r, {"compute_us": float, "ghost_us": float, "reduce_us": float, "share_percent": float},
                              f"{where}.{app}.{strategy}[{j}]", errors)
        elif kind == "mapping-grid":
            check_mapping(bench.get("results", []), where, errors)
        elif kind == "reorder-probe":
            check(bench, {"ranks": int, "nodes": int, "moved": int, "mpi_new_rank": list}, where, errors)
            check(bench.get("internode_bytes", {}), {"random": int, "mpi_reorder": int, "map_ranks": int},
                  where + ".internode_bytes", errors)
        elif kind == "mesh-stats":
            if "mapping" in bench:
                check_mapping(bench["mapping"].get("results", []), where + ".mapping", errors)
            for j, r in enumerate(bench.get("results", [])):
                check(r, {"parts": int, "nodes": int, "points": float, "intra_neighbors": float, "intra_kb": float,
                          "inter_processes_per_node": float, "inter_neighbors": float, "inter_kb": float,
                          "flat_messages": int, "node_pair_messages": int}, f"{where}.results[{j}]", errors)
        elif kind == "halo-overlap":
            check_ghost_update(bench, kind, where, args, errors)
            for j, r in enumerate(bench.get("results", [])):
                check(r, {"strategy": str, "bytes": int, "update_us": float, "work_us": float, "total_us": float,
                          "overlap_percent": float}, f"{where}.results[{j}]", errors)
        elif kind == "dot":
            for j, r in enumerate(bench.get("rows", [])):
                check(r, {"n": int, "hympi_mflops": float, "MPI_mflops": float}, f"{where}.rows[{j}]", errors)
        elif kind == "sync":
            check(bench, {"hympi": dict, "mpi": dict}, where, errors)
        elif kind == "bindings":
            check(bench, {"bytes": int, "outer": int, "inner": int, "results": list, "c_over_cxx_ns": float},
                  where, errors)
            for j, r in enumerate(bench.get("results", [])):
                check(r, dict(TIMED, valid=bool), f"{where}.results[{j}]", errors)
        else:
            errors.append(f"{where}: unknown benchmark kind")
    for kind in filter(None, args.expect.split(",")):
        if kind not in seen:
            errors.append(f"no '{kind}' benchmark in the file")
    if errors:
        print("\n".join(errors))
        sys.exit(1)
    print(f"{args.run}: {len(run['benchmarks'])} benchmark records match the schema")


if __name__ == "__main__":
    main()
