/* SPDX-License-Identifier: BSD-3-Clause */
/* Runs a program with process_vm_readv refused by the kernel (a seccomp filter: EPERM, as
 * under Docker's default profile or Yama's ptrace_scope 3), on every rank or on one:
 *   mpiexec -n N deny_single_copy all|RANK program args...
 * The rank comes from the launcher's environment (Open MPI, MPICH/Hydra, PMIx). */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define NATIVE_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_ARCH AUDIT_ARCH_AARCH64
#endif

static int launcher_rank(void) {
  const char* names[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
    if (getenv(names[i])) return atoi(getenv(names[i]));
  return -1;
}

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: deny_single_copy all|RANK program [args...]\n");
    return 2;
  }
  if (strcmp(argv[1], "all") == 0 || atoi(argv[1]) == launcher_rank()) {
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_process_vm_readv, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)};
    struct sock_fprog program = {sizeof filter / sizeof filter[0], filter};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) != 0) {
      perror("deny_single_copy: seccomp");
      return 2;
    }
  }
  execvp(argv[2], argv + 2);
  perror("deny_single_copy: exec");
  return 2;
}
