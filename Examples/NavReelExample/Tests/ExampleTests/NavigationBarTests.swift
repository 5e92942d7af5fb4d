import NavReelTesting
import Testing

// Baselines live beside this file in __Baselines__/NavigationBarTests/<scenario>/<device>/.
// Record them with NAVREEL_RECORD=all swift test (or run once on a workstation: missing ones are
// written and the test fails saying so); CI (CI=true) never writes.

@Suite("the app's navigation bar")
struct NavigationBarTests {
    @Test("the WeChat-style pop keeps each bar on its own screen")
    func wechatPop() throws {
        let scenario = try Scenario(name: "wechat-pop", devices: ["iphone-se"], scale: 1, fps: 15, capture: .bar) {
            Screen("me", title: "Me", bar: ["style": "black", "shadowHidden": true, "tintColor": "#FFFFFF"])
            Screen("favorites", title: "Favorites", bar: ["color": "#FFFFFF"], rightItems: ["Edit"])
        } steps: {
            Show("me")
            Push("favorites", duration: 0.4)
            SwipeBack(to: 0.5, release: "cancel", duration: 0.3)
            Pop(duration: 0.4)
        }
        assertNavigation(scenario)
    }

    @Test("a scenario in the YAML format, as the navreel command reads it")
    func fromYAML() throws {
        assertNavigation(try Scenario(yaml: """
            name: gradient
            devices: [iphone-se]
            scale: 1
            fps: 10
            capture: bar
            screens:
              a: {title: Inbox, bar: {gradient: {colors: ["#00FF00", "#0000FF"]}, titleColor: "#FFFFFF", style: black}}
              b: {title: Message, content: {rows: 3}}
            steps:
              - show: a
              - push: b
                duration: 0.5
            """, name: "gradient"))
    }
}
