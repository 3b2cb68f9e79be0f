import Foundation
import FoundationNetworking
var request = URLRequest(url: URL(string: "http://127.0.0.1:36485/v1/changes?since=0&wait=30")!)
request.setValue("Bearer bk9JAIC3AqDiE_vNZBqjeDB9WpKPfaLN-XDEEdBq67g", forHTTPHeaderField: "Authorization")
request.timeoutInterval = 60
let done = DispatchSemaphore(value: 0)
URLSession(configuration: .ephemeral).dataTask(with: request) { data, response, error in print((response as? HTTPURLResponse)?.statusCode ?? -1); done.signal() }.resume()
done.wait()
