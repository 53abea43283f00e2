import Foundation
import Models

/// The JSON body of `POST /reports/{server_id}/uploads`, written as bytes in
/// the shape of `UploadRequest` (`field_id` and `issue_local_id` only when
/// there are): every photo sends one, and `JSONEncoder` was the largest part
/// of the agent's own work for it.
enum UploadRequestBody {
    static func data(_ request: UploadRequest) -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(224)
        out.append(contentsOf: #"{"local_id":"#.utf8)
        JSONString.append(request.localID.wireString, to: &out)
        if let field = request.fieldID {
            out.append(contentsOf: #","field_id":"#.utf8)
            JSONString.append(field, to: &out)
        }
        if let issue = request.issueLocalID {
            out.append(contentsOf: #","issue_local_id":"#.utf8)
            JSONString.append(issue.wireString, to: &out)
        }
        if let update = request.updateID {
            out.append(contentsOf: #","update_id":"#.utf8)
            JSONString.append(update, to: &out)
        }
        out.append(contentsOf: #","sha256":"#.utf8)
        JSONString.append(request.sha256, to: &out)
        out.append(contentsOf: #","byte_size":"#.utf8)
        out.append(contentsOf: String(request.byteSize).utf8)
        out.append(UInt8(ascii: "}"))
        return Data(out)
    }
}
