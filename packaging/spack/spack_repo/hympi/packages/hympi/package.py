# SPDX-License-Identifier: BSD-3-Clause
# Spack package for hympi, in the Package API v2 layout of Spack >= 1.0, whose builtin
# packages (CMakePackage, mpi, hwloc, ...) live in spack/spack-packages. Install and the
# externals from Debian 12: docs/packaging.md.

import os
import re

from spack_repo.builtin.build_systems.cmake import CMakePackage

from spack.package import *


class Hympi(CMakePackage):
    """Hybrid MPI+MPI communication for mesh codes on multicore nodes: ghost (halo)
    updates and collectives through MPI-3 shared-memory windows inside a node and plain
    MPI between node leaders, with C++, C, Fortran and Python interfaces, a PetscSF type
    and a PMPI library for unchanged MPI programs."""

    # hympi is unreleased: no tag, no release archive, and not published yet. These two
    # addresses are placeholders for where it will be; until then the package builds from
    # a checkout (`spack develop`, docs/packaging.md). A release adds
    # version("X.Y.Z", tag="vX.Y.Z", commit="<40 hex digits>").
    homepage = "https://github.com/hympi/hympi"
    git = "https://github.com/hympi/hympi.git"

    # maintainers("...")  # none named yet

    license("BSD-3-Clause")

    version("main", branch="main")

    variant(
        "pmpi",
        default=True,
        description="Build libhympi_pmpi.so: MPI_Barrier, MPI_Bcast, MPI_Reduce and "
        "MPI_Allreduce through hympi for unchanged MPI programs (LD_PRELOAD)",
    )
    variant(
        "fortran",
        default=True,
        description="Build the Fortran 2008 module hympi (needs the MPI's mpi_f08)",
    )
    variant(
        "python",
        default=False,
        description="Build the Python package hympi (numpy arrays, mpi4py communicators)",
    )
    variant("petsc", default=False, description="Build libhympi_petsc, the PetscSF type 'hympi'")
    variant(
        "mesh",
        default=False,
        description="Build the mesh library and hympi-mesh (Gmsh, METIS), and cg with +apps",
    )
    variant(
        "apps",
        default=True,
        description="Build the applications jacobi2d, jacobi3d, laplace19 and hympi-bench",
    )

    depends_on("c", type="build")
    depends_on("cxx", type="build")
    depends_on("fortran", type="build", when="+fortran")

    depends_on("cmake@3.21:", type="build")
    depends_on("pkgconfig", type="build")  # hwloc and PETSc are found through pkg-config

    depends_on("mpi")  # MPI-3 at least (shared-memory windows)
    depends_on("hwloc@2:")
    # hympi::mapping (map_ranks, HYMPI_BUILD_MAPPING): always here.
    depends_on("metis@5:")

    # The Fortran module needs the MPI's Fortran bindings (mpi_f08).
    with when("+fortran"):
        depends_on("openmpi+fortran", when="^[virtuals=mpi] openmpi")
        depends_on("mpich+fortran", when="^[virtuals=mpi] mpich")

    # The programs (apps/, bench/, mesh/): command lines, formatting, JSON results.
    depends_on("cli11@2.1:", type="build", when="+apps")  # header-only
    depends_on("cli11@2.1:", type="build", when="+mesh")
    depends_on("fmt@9:", when="+apps")
    depends_on("fmt@9:", when="+mesh")
    depends_on("nlohmann-json@3.11:", type="build", when="+apps")  # header-only, hympi-bench

    depends_on("gmsh@4.8:", when="+mesh")

    # Spack's DAG has one MPI, so PETSc is built on hympi's MPI (hympi's configure step
    # checks that too: PETSc's headers refuse another MPI's mpi.h).
    depends_on("petsc@3.18: +mpi+shared", when="+petsc")

    # The CMake build of python/ (nanobind_add_module); scikit-build-core is the backend
    # of `pip install .` only and is not used here.
    extends("python", when="+python")
    with when("+python"):
        depends_on("python@3.10:", type=("build", "run"))
        depends_on("py-nanobind@2.2:", type="build")
        # numpy and mpi4py are imported by the package; the type stubs are made at build
        # time by importing it. mpi4py is on the same MPI, the one of this DAG.
        depends_on("py-numpy", type=("build", "run"))
        depends_on("py-mpi4py@3.1:", type=("build", "run"))

    depends_on("googletest", type="test")

    conflicts("platform=darwin", msg="hympi is Linux only (futex waits, process_vm_readv)")
    conflicts("platform=windows", msg="hympi is Linux only (futex waits, process_vm_readv)")
    conflicts("%gcc@:9", msg="hympi is C++20: GCC 10 or newer (tested with GCC 12)")

    # The smoke tests build a small consumer against the installation.
    test_requires_compiler = True

    def cmake_args(self):
        spec = self.spec
        args = [
            # The MPI of this DAG, not whatever mpicc is first on PATH. Every component is
            # named ON or OFF (none left AUTO): a requested one whose dependency is missing
            # fails the configure step, and a PETSc or Gmsh outside the DAG is never picked up.
            self.define("MPI_C_COMPILER", spec["mpi"].mpicc),
            self.define("MPI_CXX_COMPILER", spec["mpi"].mpicxx),
            self.define("MPIEXEC_EXECUTABLE", spec["mpi"].prefix.bin.mpiexec),
            self.define("HYMPI_BUILD_MAPPING", True),
            self.define_from_variant("HYMPI_BUILD_PMPI", "pmpi"),
            self.define_from_variant("HYMPI_BUILD_FORTRAN", "fortran"),
            self.define_from_variant("HYMPI_BUILD_PYTHON", "python"),
            self.define_from_variant("HYMPI_PETSC", "petsc"),
            self.define_from_variant("HYMPI_BUILD_MESH", "mesh"),
            self.define_from_variant("HYMPI_BUILD_APPS", "apps"),
            self.define_from_variant("HYMPI_BUILD_BENCH", "apps"),
            self.define("HYMPI_BUILD_TESTS", self.run_tests),
            self.define("HYMPI_TSAN_TESTS", False),
            self.define("HYMPI_WERROR", False),
        ]
        if spec.satisfies("+fortran"):
            args.append(self.define("MPI_Fortran_COMPILER", spec["mpi"].mpifc))
        # +python: CMakePackage passes Python_EXECUTABLE (find_python_hints); nanobind is
        # found with `python -m nanobind --cmake_dir` (python/CMakeLists.txt).
        return args

    @run_after("install")
    def install_python_package(self):
        """python/CMakeLists.txt installs the extension and its stubs into <prefix>/hympi,
        the layout of a wheel (`pip install .`); move them into site-packages beside the
        package's pure-Python files, as the wheel has them."""
        if not self.spec.satisfies("+python"):
            return
        staged = join_path(self.prefix, "hympi")
        package_dir = join_path(python_platlib, "hympi")  # site-packages of this prefix
        mkdirp(package_dir)
        for name in os.listdir(staged):
            rename(join_path(staged, name), join_path(package_dir, name))
        os.rmdir(staged)
        source = join_path(self.stage.source_path, "python", "hympi")
        for name in os.listdir(source):
            if os.path.isfile(join_path(source, name)):
                install(join_path(source, name), package_dir)

    @run_after("install")
    def cache_test_sources(self):
        """The consumer project of the install test (tests/package) for `spack test run`."""
        cache_extra_test_sources(self, [join_path("tests", "package", "consumer")])

    def _mpiexec(self):
        """The launcher of this DAG's MPI, set for a small machine: Open MPI may run as
        root (containers, CI) and more ranks than cores, without the single-copy (CMA)
        transport that containers without ptrace rights refuse (as cmake/HympiMpiTests.cmake)."""
        if self.spec.satisfies("^[virtuals=mpi] openmpi"):
            env["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
            env["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
            env["OMPI_MCA_rmaps_base_oversubscribe"] = "1"  # Open MPI 4
            env["OMPI_MCA_btl_vader_single_copy_mechanism"] = "none"
            env["PRTE_MCA_rmaps_default_mapping_policy"] = ":oversubscribe"  # Open MPI 5
            env["OMPI_MCA_smsc"] = "^cma"
        env["HYMPI_TIMEOUT"] = "60"  # a hang becomes hympi's watchdog message
        return which(self.spec["mpi"].prefix.bin.mpiexec, required=True)

    def test_version(self):
        """run hympi-bench --version on 2 ranks: version and the components built"""
        if not self.spec.satisfies("+apps"):
            raise SkipTest("hympi-bench is built with +apps")
        mpiexec = self._mpiexec()
        bench = join_path(self.prefix.bin, "hympi-bench")
        out = mpiexec("-n", "2", bench, "--version", output=str, error=str)
        check_outputs([r"hympi \d+\.\d+\.\d+", "running with MPI: "], out)
        match = re.search(r"^components: (.*)$", out, re.MULTILINE)
        if not match:
            raise AssertionError(f"no 'components:' line in\n{out}")
        built = set(match.group(1).split())
        for component in ("c", "c++", "mapping"):
            if component not in built:
                raise AssertionError(f"component {component} missing: {sorted(built)}")
        for component in ("pmpi", "fortran", "python", "petsc", "mesh"):
            if (component in built) != self.spec.satisfies(f"+{component}"):
                raise AssertionError(
                    f"component {component}: built {sorted(built)}, spec {self.spec}"
                )

    def test_jacobi2d(self):
        """run jacobi2d on 2 ranks (shared-memory ghost updates) and compare with a serial run"""
        if not self.spec.satisfies("+apps"):
            raise SkipTest("jacobi2d is built with +apps")
        mpiexec = self._mpiexec()
        out = mpiexec(
            "-n",
            "2",
            self.prefix.bin.jacobi2d,
            "--grid",
            "40,36",
            "--iterations",
            "40",
            "--strategy",
            "shm",
            "--verify",
            output=str,
            error=str,
        )
        verified = (
            "verify: largest difference to a serial run 0.000e+00 over 1440 points: identical"
        )
        check_outputs(re.escape(verified), out)

    def test_consumer(self):
        """build a C++ and a C program with find_package(hympi) and run each on 2 ranks"""
        spec = self.spec
        cmake = which(spec["cmake"].prefix.bin.cmake, required=True)
        mpiexec = self._mpiexec()
        source = self.test_suite.current_test_cache_dir.tests.package.consumer
        runs = [
            ("CXX", spec["mpi"].mpicxx, "consumer", "consumer: 2 ranks, allreduce 3"),
            ("C", spec["mpi"].mpicc, "consumer_c", "consumer-c: 2 ranks, allreduce 3"),
        ]
        for language, compiler, program, expected in runs:
            with test_part(
                self,
                f"test_consumer_{language.lower()}",
                purpose=f"find_package(hympi) from a {language} project, {program} on 2 ranks",
            ):
                build = join_path(os.getcwd(), f"consumer-{language}")
                cmake(
                    "-S",
                    source,
                    "-B",
                    build,
                    self.define("LANGUAGE", language),
                    self.define("CMAKE_PREFIX_PATH", self.prefix),
                    # the MPI's wrapper compiles, and FindMPI (hympiConfig.cmake) takes it
                    self.define(f"CMAKE_{language}_COMPILER", compiler),
                    self.define(f"MPI_{language}_COMPILER", compiler),
                    self.define(
                        "PKG_CONFIG_EXECUTABLE",
                        join_path(spec["pkgconfig"].prefix.bin, "pkg-config"),
                    ),
                )
                cmake("--build", build)
                out = mpiexec("-n", "2", join_path(build, program), output=str, error=str)
                check_outputs(re.escape(expected), out)

    def test_python(self):
        """import hympi and allreduce on 2 ranks over mpi4py's COMM_WORLD"""
        if not self.spec.satisfies("+python"):
            raise SkipTest("the Python package is built with +python")
        mpiexec = self._mpiexec()
        script = (
            "import hympi\n"
            "with hympi.Context() as ctx:\n"
            "    print('hympi python allreduce', ctx.allreduce(1.0, 'sum'))\n"
        )
        out = mpiexec(
            "-n", "2", self.spec["python"].command.path, "-c", script, output=str, error=str
        )
        check_outputs(re.escape("hympi python allreduce 2.0"), out)
