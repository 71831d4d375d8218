/* fiber_switch_x86_64.S - the context switch of slabsim's fibers on x86-64.
 *
 * void *fiber_ctx_switch(void **save_sp, void *to_sp, void *data)
 *
 * Saves the System V callee-saved registers on the current stack, stores the
 * stack pointer in *save_sp, loads to_sp, restores that fiber's registers and
 * returns into it with `data` as the return value. Unlike Boost.Context's
 * jump_fcontext it does not save the x87 control word and MXCSR: the simulator
 * never changes them, and fnstcw/fldcw were most of jump_fcontext's cost
 * (`slabsim bench` shows the round trip). */
	.text
	.globl	fiber_ctx_switch
	.type	fiber_ctx_switch, @function
fiber_ctx_switch:
	.cfi_startproc
	pushq	%rbp
	pushq	%rbx
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	movq	%rsp, (%rdi)
	movq	%rsi, %rsp
	movq	%rdx, %rax
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	popq	%rbp
	ret
	.cfi_endproc
	.size	fiber_ctx_switch, .-fiber_ctx_switch

/* First entry of a new fiber: fiber_ctx_switch "returns" here with the
 * entry function in %r12 and its argument in %r13; %rax holds the data
 * passed by the switch (the hop note), handed on as the second argument. */
	.globl	fiber_ctx_start
	.type	fiber_ctx_start, @function
fiber_ctx_start:
	.cfi_startproc
	.cfi_undefined rip
	movq	%r13, %rdi
	movq	%rax, %rsi
	callq	*%r12
	ud2
	.cfi_endproc
	.size	fiber_ctx_start, .-fiber_ctx_start

	.section .note.GNU-stack,"",@progbits
