// simt_ctx_swap for x86-64 (System V): void simt_ctx_swap(void **save_sp, void *load_sp).
// Pushes the callee-saved registers on the current stack, stores the stack pointer in *save_sp,
// switches to load_sp and pops the registers saved there. A fresh context (ctx.cpp) holds
// r13 = function, r12 = argument and returns into simt_ctx_entry.
#if defined(__x86_64__) && !defined(SIMT_FIBER_UCONTEXT)
        .text
        .globl  simt_ctx_swap
        .type   simt_ctx_swap, @function
        .p2align 4
simt_ctx_swap:
        pushq   %rbp
        pushq   %rbx
        pushq   %r12
        pushq   %r13
        pushq   %r14
        pushq   %r15
        movq    %rsp, (%rdi)
        movq    %rsi, %rsp
        popq    %r15
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %rbx
        popq    %rbp
        ret
        .size   simt_ctx_swap, .-simt_ctx_swap

        .globl  simt_ctx_entry
        .type   simt_ctx_entry, @function
        .p2align 4
simt_ctx_entry:
        // Entered by `ret` with a 16-byte aligned stack; the call keeps the ABI alignment.
        movq    %r12, %rdi
        callq   *%r13
        ud2                                 // the function must not return
        .size   simt_ctx_entry, .-simt_ctx_entry
#endif
        .section .note.GNU-stack,"",@progbits
