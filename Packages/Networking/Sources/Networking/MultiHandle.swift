internal import CCurl

/// Owns one libcurl multi handle (`CURLM *`) and drives several easy handles
/// at once on the calling thread with `curl_multi_perform` / `curl_multi_poll`.
///
/// Not `Sendable`: the one worker thread of `CurlTransport.uploadAll` creates,
/// drives and releases it, together with every easy handle it holds.
final class MultiHandle {
    /// The raw handle; valid until `deinit`. `curl_multi_wakeup` is the one call other threads may make on it.
    let raw: UnsafeMutableRawPointer
    /// The transfers in flight, by their raw easy handle, with the index of their input.
    private var active: [UnsafeMutableRawPointer: (index: Int, easy: EasyHandle)] = [:]

    /// A multi handle; nil when libcurl cannot make one.
    init?() {
        guard CurlGlobal.ready, let handle = curl_multi_init() else { return nil }
        raw = handle
    }

    deinit {
        // Every easy handle leaves the multi handle before either is cleaned up.
        for key in active.keys { curl_multi_remove_handle(raw, key) }
        active.removeAll()
        curl_multi_cleanup(raw)
    }

    /// How many transfers are in flight.
    var count: Int { active.count }

    /// Starts `easy` as the transfer for input `index`; false when libcurl refuses it.
    func add(_ easy: EasyHandle, index: Int) -> Bool {
        guard curl_multi_add_handle(raw, easy.raw) == CURLM_OK else { return false }
        active[easy.raw] = (index, easy)
        return true
    }

    /// Moves every transfer forward as far as it can go without blocking, then
    /// returns the ones that ended, with their outcomes, removed from the handle.
    func step() -> [(index: Int, result: Result<HTTPResponse, NetworkingError>)] {
        var running: Int32 = 0
        let status = curl_multi_perform(raw, &running)
        var finished: [(index: Int, result: Result<HTTPResponse, NetworkingError>)] = []
        var queued: Int32 = 0
        while let message = curl_multi_info_read(raw, &queued) {
            guard jqc_multi_message_is_done(message) != 0, let key = message.pointee.easy_handle,
                let entry = active.removeValue(forKey: key)
            else { continue }
            curl_multi_remove_handle(raw, key)
            finished.append((entry.index, entry.easy.finish(jqc_multi_message_result(message))))
        }
        if status != CURLM_OK {
            // The multi handle itself failed: every transfer still in it ends with that failure.
            let text = curl_multi_strerror(status).map { String(cString: $0) } ?? "multi handle failure"
            for (key, entry) in active {
                curl_multi_remove_handle(raw, key)
                finished.append(
                    (entry.index, .failure(NetworkingError(.transport, "Concurrent uploads failed: \(text)."))))
            }
            active.removeAll()
        }
        return finished
    }

    /// Sleeps until a transfer has something to do, or `milliseconds` pass.
    func wait(milliseconds: Int32) {
        var ready: Int32 = 0
        _ = curl_multi_poll(raw, nil, 0, milliseconds, &ready)
    }
}
