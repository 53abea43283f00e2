/// Area-average resampling and orientation in one pass: each stored pixel
/// of the result is the average of the source area it covers, and is written
/// straight to its upright position, so no second full-size buffer exists.
enum Resampler {
    /// `source` scaled to `width` x `height` (in the source's stored frame)
    /// and turned upright by `orientation`; the source is consumed.
    static func resample(_ source: consuming RGBImage, width: Int, height: Int, orientation: Orientation) -> RGBImage {
        if width == source.width && height == source.height {
            return orientation == .topLeft ? source : reorient(source, orientation)
        }
        return areaAverage(source, width: width, height: height, orientation: orientation)
    }

    /// Where the stored-frame row `y` of a `width` x `height` image starts in the
    /// upright buffer, and how far (in pixels) each step along the row moves.
    private static func rowPlacement(y: Int, width: Int, height: Int, orientation: Orientation) -> (
        start: Int, step: Int
    ) {
        let uprightWidth = orientation.swapsAxes ? height : width
        let first = orientation.upright(x: 0, y: y, width: width, height: height)
        let start = first.y * uprightWidth + first.x
        guard width > 1 else { return (start, 0) }
        let second = orientation.upright(x: 1, y: y, width: width, height: height)
        return (start, second.y * uprightWidth + second.x - start)
    }

    private static func uprightImage(width: Int, height: Int, orientation: Orientation) -> RGBImage {
        orientation.swapsAxes ? RGBImage(width: height, height: width) : RGBImage(width: width, height: height)
    }

    /// A copy of `source` turned upright, pixel for pixel.
    private static func reorient(_ source: RGBImage, _ orientation: Orientation) -> RGBImage {
        let (width, height) = (source.width, source.height)
        var result = uprightImage(width: width, height: height, orientation: orientation)
        source.pixels.withUnsafeBufferPointer { src in
            result.pixels.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    let (start, step) = rowPlacement(y: y, width: width, height: height, orientation: orientation)
                    var s = y * width * 3
                    var d = start * 3
                    for _ in 0..<width {
                        dst[d] = src[s]
                        dst[d + 1] = src[s + 1]
                        dst[d + 2] = src[s + 2]
                        s += 3
                        d += step * 3
                    }
                }
            }
        }
        return result
    }

    private static func areaAverage(_ source: RGBImage, width: Int, height: Int, orientation: Orientation) -> RGBImage {
        let across = AxisWeights(source: source.width, destination: width)
        let down = AxisWeights(source: source.height, destination: height)
        var result = uprightImage(width: width, height: height, orientation: orientation)
        let rowLength = width * 3
        let sourceRowLength = source.width * 3
        // One source row averaged across, kept for the next output row that shares it, and the running sum down.
        let filtered = UnsafeMutablePointer<Float>.allocate(capacity: rowLength)
        let sum = UnsafeMutablePointer<Float>.allocate(capacity: rowLength)
        defer {
            filtered.deallocate()
            sum.deallocate()
        }
        source.pixels.withUnsafeBufferPointer { srcBuffer in
            result.pixels.withUnsafeMutableBufferPointer { dstBuffer in
                guard let src = srcBuffer.baseAddress, let dst = dstBuffer.baseAddress else { return }
                var filteredRow = -1
                var y = 0
                while y < height {
                    sum.update(repeating: 0, count: rowLength)
                    var tap = 0
                    while tap < down.counts[y] {
                        let sourceRow = down.firsts[y] + tap
                        if sourceRow != filteredRow {
                            filterRow(src + sourceRow * sourceRowLength, across, into: filtered)
                            filteredRow = sourceRow
                        }
                        let w = down.weights[y * down.maxTaps + tap]
                        var i = 0
                        while i < rowLength {
                            sum[i] += w * filtered[i]
                            i += 1
                        }
                        tap += 1
                    }
                    let (start, step) = rowPlacement(y: y, width: width, height: height, orientation: orientation)
                    var d = dst + start * 3
                    var a = sum
                    for _ in 0..<width {
                        d[0] = toByte(a[0])
                        d[1] = toByte(a[1])
                        d[2] = toByte(a[2])
                        a += 3
                        d += step * 3
                    }
                    y += 1
                }
            }
        }
        return result
    }

    /// One source row, averaged across to the destination width.
    private static func filterRow(
        _ row: UnsafePointer<UInt8>, _ across: AxisWeights, into out: UnsafeMutablePointer<Float>
    ) {
        across.weights.withUnsafeBufferPointer { weightBuffer in
            across.firsts.withUnsafeBufferPointer { firsts in
                across.counts.withUnsafeBufferPointer { counts in
                    guard let weights = weightBuffer.baseAddress else { return }
                    var o = out
                    var x = 0
                    while x < counts.count {
                        var r: Float = 0, g: Float = 0, b: Float = 0
                        var s = row + firsts[x] * 3
                        var w = weights + x * across.maxTaps
                        let end = w + counts[x]
                        while w < end {
                            r += w.pointee * Float(s[0])
                            g += w.pointee * Float(s[1])
                            b += w.pointee * Float(s[2])
                            s += 3
                            w += 1
                        }
                        o[0] = r
                        o[1] = g
                        o[2] = b
                        o += 3
                        x += 1
                    }
                }
            }
        }
    }

    @inline(__always)
    private static func toByte(_ value: Float) -> UInt8 {
        UInt8(min(255, max(0, value + 0.5)))
    }
}

/// For each destination pixel along one axis: the first source pixel it
/// covers, how many it covers, and each one's share of its area.
///
/// Measured in units where a source pixel is `destination` long and a
/// destination pixel `source` long, both axes are `source * destination`
/// long and every overlap is an exact integer.
struct AxisWeights {
    let firsts: [Int]
    let counts: [Int]
    /// `maxTaps` weights per destination pixel; unused slots are zero.
    let weights: [Float]
    let maxTaps: Int

    init(source: Int, destination: Int) {
        let taps = (source + destination - 1) / destination + 1
        var firsts = [Int](repeating: 0, count: destination)
        var counts = [Int](repeating: 0, count: destination)
        var weights = [Float](repeating: 0, count: destination * taps)
        for i in 0..<destination {
            let low = i * source
            let high = low + source
            let first = low / destination
            let last = (high - 1) / destination
            firsts[i] = first
            counts[i] = last - first + 1
            for j in first...last {
                let overlap = min(high, (j + 1) * destination) - max(low, j * destination)
                weights[i * taps + (j - first)] = Float(overlap) / Float(source)
            }
        }
        self.firsts = firsts
        self.counts = counts
        self.weights = weights
        self.maxTaps = taps
    }
}
