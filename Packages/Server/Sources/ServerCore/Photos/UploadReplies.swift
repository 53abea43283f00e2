import Foundation
import Models

/// The answers of the photo routes, `{"data":{"upload":…},"ok":true}` and
/// `{"data":{"photo":…},"ok":true}`, written as bytes in exactly the form
/// `JSONBody.encode` gives them (keys sorted, slashes not escaped, strings
/// escaped as `JSONEncoder` escapes them). Every photo is answered once or
/// twice, and `JSONEncoder` cost about as much as the rest of a `POST
/// /uploads` handler's own work.
enum UploadReplies {
    static func envelope(_ response: UploadStartResponse) -> Data {
        var out = JSONBytes()
        out.open("data")
        var first = true
        if let photo = response.photo {
            out.member("photo", first: first)
            write(photo, to: &out)
            first = false
        }
        if let upload = response.upload {
            out.member("upload", first: first)
            out.raw("{")
            out.member("expires_at", first: true)
            out.string(upload.expiresAt)
            out.member("offset", first: false)
            out.number(upload.offset)
            out.member("url", first: false)
            out.string(upload.url)
            out.raw("}")
        }
        return out.closingEnvelope()
    }

    static func envelope(_ response: PhotoUploadResponse) -> Data {
        var out = JSONBytes()
        out.open("data")
        out.member("photo", first: true)
        write(response.photo, to: &out)
        return out.closingEnvelope()
    }

    private static func write(_ photo: PhotoUploadResponse.UploadedPhoto, to out: inout JSONBytes) {
        out.raw("{")
        out.member("byte_size", first: true)
        out.number(photo.byteSize)
        out.member("local_id", first: false)
        out.string(photo.localID.wireString)
        out.member("url", first: false)
        out.string(photo.url)
        out.raw("}")
    }
}
