// simt_ctx_swap for AArch64 (AAPCS64): void simt_ctx_swap(void **save_sp, void *load_sp).
// Saves x19-x30 and d8-d15 (160 bytes, keeping sp 16-byte aligned) on the current stack, stores
// sp in *save_sp, switches to load_sp and restores the registers saved there. A fresh context
// (ctx.cpp) holds x20 = function, x19 = argument, x30 = simt_ctx_entry.
#if defined(__aarch64__) && !defined(SIMT_FIBER_UCONTEXT)
        .text
        .globl  simt_ctx_swap
        .type   simt_ctx_swap, %function
        .p2align 4
simt_ctx_swap:
        sub     sp, sp, #160
        stp     x19, x20, [sp, #0]
        stp     x21, x22, [sp, #16]
        stp     x23, x24, [sp, #32]
        stp     x25, x26, [sp, #48]
        stp     x27, x28, [sp, #64]
        stp     x29, x30, [sp, #80]
        stp     d8, d9, [sp, #96]
        stp     d10, d11, [sp, #112]
        stp     d12, d13, [sp, #128]
        stp     d14, d15, [sp, #144]
        mov     x2, sp
        str     x2, [x0]
        mov     sp, x1
        ldp     x19, x20, [sp, #0]
        ldp     x21, x22, [sp, #16]
        ldp     x23, x24, [sp, #32]
        ldp     x25, x26, [sp, #48]
        ldp     x27, x28, [sp, #64]
        ldp     x29, x30, [sp, #80]
        ldp     d8, d9, [sp, #96]
        ldp     d10, d11, [sp, #112]
        ldp     d12, d13, [sp, #128]
        ldp     d14, d15, [sp, #144]
        add     sp, sp, #160
        ret
        .size   simt_ctx_swap, .-simt_ctx_swap

        .globl  simt_ctx_entry
        .type   simt_ctx_entry, %function
        .p2align 4
simt_ctx_entry:
        mov     x0, x19
        blr     x20
        brk     #0                          // the function must not return
        .size   simt_ctx_entry, .-simt_ctx_entry
#endif
        .section .note.GNU-stack,"",%progbits
