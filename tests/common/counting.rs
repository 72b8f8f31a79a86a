//! A global allocator that counts live bytes, their peak and the bytes allocated in all, for tests that bound memory. A
//! test binary installs it with `#[global_allocator] static A: Counting = Counting;` and runs
//! one test function: it counts the whole process.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Counts every allocation, then hands it to the system allocator.
pub struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static TOTAL: AtomicUsize = AtomicUsize::new(0);
static CALLS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call goes to `System`; only sizes are counted.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grow(layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        grow(new_size);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

fn grow(n: usize) {
    let live = LIVE.fetch_add(n, Ordering::Relaxed) + n;
    PEAK.fetch_max(live, Ordering::Relaxed);
    TOTAL.fetch_add(n, Ordering::Relaxed);
    CALLS.fetch_add(1, Ordering::Relaxed);
}

/// How many allocations (and reallocations) were made so far: a count of work that does not
/// depend on their sizes.
pub fn allocations() -> usize {
    CALLS.load(Ordering::Relaxed)
}

/// The peak of live bytes above the start while `f` runs, and its result.
pub fn peak_of<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let ((peak, _), t) = cost_of(f);
    (peak, t)
}

/// While `f` runs: the peak of live bytes above the start and the bytes allocated in all (the
/// work), and its result.
pub fn cost_of<T>(f: impl FnOnce() -> T) -> ((usize, usize), T) {
    let start = LIVE.load(Ordering::Relaxed);
    PEAK.store(start, Ordering::Relaxed);
    let total = TOTAL.load(Ordering::Relaxed);
    let t = f();
    let peak = PEAK.load(Ordering::Relaxed) - start;
    ((peak, TOTAL.load(Ordering::Relaxed) - total), t)
}
