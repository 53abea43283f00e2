import Foundation
import Testing
import Storage
import TestSupport

/// Where the profile lives: `--home` > `JQC_HOME` > XDG folders.
@Suite("Profile")
struct ProfileTests {
    let env = ["HOME": "/home/ana", "XDG_DATA_HOME": "/data", "XDG_CONFIG_HOME": "/config", "JQC_HOME": "/jqc-home"]

    @Test("--home wins, and holds the credentials too")
    func explicitHome() {
        let profile = Profile.resolve(home: "/work/profile", environment: env)
        #expect(profile.dataDirectory.path == "/work/profile")
        #expect(profile.credentialsDirectory.path == "/work/profile")
        #expect(profile.storePath == "/work/profile/jqc.sqlite")
        #expect(profile.photosDirectory.path == "/work/profile/photos")
    }

    @Test("JQC_HOME comes next")
    func environmentHome() {
        let profile = Profile.resolve(home: nil, environment: env)
        #expect(profile.dataDirectory.path == "/jqc-home")
        #expect(profile.credentialsDirectory.path == "/jqc-home")
    }

    @Test("then the XDG folders, data and credentials apart")
    func xdg() {
        var env = self.env
        env["JQC_HOME"] = nil
        let profile = Profile.resolve(environment: env)
        #expect(profile.dataDirectory.path == "/data/jqc")
        #expect(profile.credentialsDirectory.path == "/config/jqc")
    }

    @Test("without XDG variables (or with relative ones), the defaults under HOME")
    func defaults() {
        let profile = Profile.resolve(environment: [
            "HOME": "/home/ana", "XDG_DATA_HOME": "relative/path", "JQC_HOME": "",
        ])
        #expect(profile.dataDirectory.path == "/home/ana/.local/share/jqc")
        #expect(profile.credentialsDirectory.path == "/home/ana/.config/jqc")
    }

    @Test("opening a profile creates its folders 0700 and the store inside")
    func createsFolders() throws {
        let dir = TemporaryDirectory()
        let profile = Profile.resolve(home: dir.path("profile"), environment: [:])
        let store = try LocalStore.open(profile: profile)
        for path in [profile.dataDirectory.path, profile.photosDirectory.path] {
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode == 0o700)
        }
        #expect(store.path == profile.storePath)
        #expect(FileManager.default.fileExists(atPath: profile.storePath))
        #expect(store.photoFiles?.directory == profile.photosDirectory)
    }
}
