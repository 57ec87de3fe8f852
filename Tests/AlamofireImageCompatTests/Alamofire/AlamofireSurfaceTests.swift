import AlamofireImageCompat
import CometTestSupport
import Foundation
import Testing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Alamofire 3 surface", .timeLimit(.minutes(10)))
struct AlamofireSurfaceTests {
    @Test func resultHasAlamofire3CasesAndAccessors() {
        let success: Result<Int, NSError> = .Success(7)
        let failure: Result<Int, NSError> = .Failure(NSError(domain: "test", code: 1))
        #expect(success.isSuccess && success.value == 7 && success.error == nil)
        #expect(failure.isFailure && failure.value == nil && failure.error?.code == 1)
        switch failure {
        case .Success: Issue.record("expected a failure")
        case .Failure(let error): #expect(error.domain == "test")
        }
        #expect(success.description == "SUCCESS" && failure.debugDescription.hasPrefix("FAILURE: "))
    }

    @Test func urlStringAndURLRequestAreURLRequestConvertible() {
        let url = URL(string: "https://example.com/a.png")!
        let conversions: [URLRequestConvertible] = [url, url.absoluteString, URLRequest(url: url)]
        #expect(conversions.allSatisfy { $0.URLRequest.url == url })
    }

    @Test func aStringThatIsNotAURLFailsWithUnsupportedURL() async throws {
        let recorder = Recorder<Completion>()
        ImageDownloader(imageCache: nil).downloadImage(URLRequest: "not a url", completion: recorder.handler())
        #expect(await eventually { recorder.count == 1 })
        #expect(recorder.values.first?.error?.code == NSURLErrorUnsupportedURL)
    }

    @Test func validateRefusesAContentTypeOutsideTheAcceptHeader() async throws {
        let server = try await AFIServer.start()
        let url = server.serve(TestImages.png(), at: "v.png")
        let recorder = Recorder<NSError?>()
        Alamofire.request(.GET, url, headers: ["Accept": "image/jpeg"]).validate().response { _, _, _, error in
            recorder.append(error)
        }
        #expect(await eventually { recorder.count == 1 })
        #expect(recorder.values.first??.domain == "com.alamofire.error" && recorder.values.first??.code == -6002)
    }

    @Test func validateAcceptsAWildcardMatch() async throws {
        let server = try await AFIServer.start()
        let url = server.serve(TestImages.png(), at: "w.png")
        let recorder = Recorder<Completion>()
        Alamofire.request(.GET, url, headers: ["Accept": "image/*"]).validate().responseImage { response in
            recorder.append(Completion(response: response, onMainThread: isOnMainQueue(), tag: ""))
        }
        #expect(await eventually { recorder.count == 1 })
        #expect(recorder.values.first?.image != nil)
    }

    @Test func requestsThatNobodyKeepsStillComplete() async throws {
        let server = try await AFIServer.start()
        let url = server.serve(TestImages.png(), at: "unheld.png")
        let recorder = Recorder<Bool>()
        _ = Alamofire.request(.GET, url).response { _, response, data, _ in
            recorder.append(response?.statusCode == 200 && data?.isEmpty == false)
        }
        #expect(await eventually { recorder.count == 1 })
        #expect(recorder.values == [true])
    }
}
