/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/* Minimal Cortex-M4 start-up for the QEMU mps2-an386 board: vector table, .data/.bss set-up,
 * semihosting I/O (newlib rdimon), main, exit through semihosting. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

extern uint32_t __data_load, __data_start, __data_end, __bss_start, __bss_end, __stack_top;
extern int main(void);
extern void initialise_monitor_handles(void);
void Reset_Handler(void);
void Default_Handler(void);

__attribute__((section(".vectors"), used)) static void (*const vectors[16])(void) = {
    (void (*)(void))(&__stack_top), Reset_Handler, Default_Handler, Default_Handler,
    Default_Handler, Default_Handler, Default_Handler, 0, 0, 0, 0,
    Default_Handler, Default_Handler, 0, Default_Handler, Default_Handler,
};

void Reset_Handler(void)
{
    uint32_t *s = &__data_load, *d = &__data_start;
    while (d < &__data_end)
        *d++ = *s++;
    for (d = &__bss_start; d < &__bss_end;)
        *d++ = 0;
    initialise_monitor_handles();
    exit(main());
}

void Default_Handler(void)
{
    /* a fault: report it through semihosting and stop */
    exit(99);
}
