/* The two pieces of assembly every traced call passes through (README.md, "How it works"). */

	.text

/* Entered by a thunk (thunks.S) with the symbol's index in r11d and the caller's arguments and
   return address untouched. Saves the argument registers (rax counts the vector registers of a
   variadic call), calls trace_enter(index, &return address), which logs the call and may swap
   the return address for trace_return, restores the registers and jumps to the real function
   that trace_enter returned. Arguments on the stack stay where the caller put them. */
	.p2align 4
	.globl trace_thunk_common
	.hidden trace_thunk_common
	.type trace_thunk_common, @function
trace_thunk_common:
	.cfi_startproc
	push %rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	mov %rsp, %rbp
	.cfi_def_cfa_register %rbp
	and $-16, %rsp
	sub $192, %rsp
	mov %rdi, 0(%rsp)
	mov %rsi, 8(%rsp)
	mov %rdx, 16(%rsp)
	mov %rcx, 24(%rsp)
	mov %r8, 32(%rsp)
	mov %r9, 40(%rsp)
	mov %rax, 48(%rsp)
	movaps %xmm0, 64(%rsp)
	movaps %xmm1, 80(%rsp)
	movaps %xmm2, 96(%rsp)
	movaps %xmm3, 112(%rsp)
	movaps %xmm4, 128(%rsp)
	movaps %xmm5, 144(%rsp)
	movaps %xmm6, 160(%rsp)
	movaps %xmm7, 176(%rsp)
	mov %r11d, %edi
	lea 8(%rbp), %rsi
	call trace_enter
	mov %rax, %r11
	mov 0(%rsp), %rdi
	mov 8(%rsp), %rsi
	mov 16(%rsp), %rdx
	mov 24(%rsp), %rcx
	mov 32(%rsp), %r8
	mov 40(%rsp), %r9
	mov 48(%rsp), %rax
	movaps 64(%rsp), %xmm0
	movaps 80(%rsp), %xmm1
	movaps 96(%rsp), %xmm2
	movaps 112(%rsp), %xmm3
	movaps 128(%rsp), %xmm4
	movaps 144(%rsp), %xmm5
	movaps 160(%rsp), %xmm6
	movaps 176(%rsp), %xmm7
	leave
	.cfi_def_cfa %rsp, 8
	jmp *%r11
	.cfi_endproc
	.size trace_thunk_common, .-trace_thunk_common

/* Where a real function returns to when trace_enter swapped its return address: keeps the
   result registers (rax, rdx, xmm0, xmm1), calls trace_leave(result), which logs a failure and
   gives back the caller's return address, and jumps there. The caller's frame cannot be
   described to an unwinder (its return address is in trace.c's per-thread stack), so stack
   walks end here. */
	.p2align 4
	.globl trace_return
	.hidden trace_return
	.type trace_return, @function
	.cfi_startproc
	.cfi_undefined %rip
	nop	/* unwinders look a return address up one byte before it */
trace_return:
	push %rbp
	mov %rsp, %rbp
	and $-16, %rsp
	sub $48, %rsp
	mov %rax, 0(%rsp)
	mov %rdx, 8(%rsp)
	movaps %xmm0, 16(%rsp)
	movaps %xmm1, 32(%rsp)
	mov %eax, %edi
	call trace_leave
	mov %rax, %r11
	mov 0(%rsp), %rax
	mov 8(%rsp), %rdx
	movaps 16(%rsp), %xmm0
	movaps 32(%rsp), %xmm1
	leave
	jmp *%r11
	.cfi_endproc
	.size trace_return, .-trace_return

	.section .note.GNU-stack,"",@progbits
