//! The `irilint` binary: all the work is in the library (`cli::run`).

use std::alloc::{GlobalAlloc, Layout, System};

/// The system allocator, except that running out of memory is an error message and exit code
/// 2, as every other failure of the run, not an abort with a core dump.
struct ExitWhenOutOfMemory;

// SAFETY: every call goes to `System` unchanged; only a null result is acted on.
unsafe impl GlobalAlloc for ExitWhenOutOfMemory {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is passed on.
        checked(unsafe { System.alloc(layout) }, layout.size())
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as above.
        checked(unsafe { System.alloc_zeroed(layout) }, layout.size())
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as above.
        checked(unsafe { System.realloc(ptr, layout, new_size) }, new_size)
    }
}

#[global_allocator]
static ALLOCATOR: ExitWhenOutOfMemory = ExitWhenOutOfMemory;

fn checked(ptr: *mut u8, size: usize) -> *mut u8 {
    if ptr.is_null() && size > 0 {
        out_of_memory(size);
    }
    ptr
}

/// Says so and exits without allocating (nothing else can be trusted to work now).
fn out_of_memory(size: usize) -> ! {
    let mut message = *b"irilint: error: out of memory (an allocation of 0000000000000000000 bytes failed); check fewer or smaller files, or raise the memory limit\n";
    // The size, right-aligned in the zeros, without formatting (which may allocate).
    let digits = b"irilint: error: out of memory (an allocation of ".len();
    let mut n = size;
    let mut i = digits + 19;
    while i > digits {
        i -= 1;
        message[i] = b'0' + (n % 10) as u8;
        n /= 10;
    }
    let zeros = message[digits..digits + 18]
        .iter()
        .take_while(|&&b| b == b'0')
        .count();
    let (head, tail) = message.split_at(digits);
    let tail = &tail[zeros..];
    // SAFETY: writing a valid buffer to standard error, then ending the process.
    unsafe {
        libc::write(2, head.as_ptr().cast(), head.len());
        libc::write(2, tail.as_ptr().cast(), tail.len());
        libc::_exit(2)
    }
}

fn main() -> std::process::ExitCode {
    irilint::cli::run(std::env::args_os().collect())
}
