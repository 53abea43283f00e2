internal import CMicroHTTPD

/// The process's memory policy for request bodies.
public enum BodyMemory {
    /// Request bodies of up to megabytes come and go on many threads; from
    /// `bytes` up they are mapped on their own and returned to the system
    /// when freed, so a burst of large requests does not leave the server
    /// holding their memory (glibc would otherwise raise the threshold and
    /// keep them in its arenas). Call once, before serving.
    public static func mapLargeAllocations(from bytes: Int32) {
        jqc_map_large_allocations(bytes)
    }
}
