/// The metadata plist of a small shop, for the plan and apply tests: a consumable with prices in
/// two territories, an availability and a review note, and a monthly subscription in a group.
public enum ShopCatalog {
    public static let metadata = """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0">
    <dict>
    	<key>IAPCatalogMetadata</key><integer>1</integer>
    	<key>bundleID</key><string>com.acme.shop</string>
    	<key>products</key>
    	<dict>
    		<key>com.acme.shop.gems</key>
    		<dict>
    			<key>kind</key><string>consumable</string>
    			<key>referenceName</key><string>Gems</string>
    			<key>price</key><string>0.99</string>
    			<key>currency</key><string>USD</string>
    			<key>prices</key><dict><key>GBR</key><string>0.89</string></dict>
    			<key>reviewNote</key><string>Buy from the shop tab.</string>
    			<key>availability</key>
    			<dict>
    				<key>territories</key><array><string>USA</string><string>GBR</string></array>
    				<key>newTerritories</key><true/>
    			</dict>
    			<key>localizations</key>
    			<dict><key>en-US</key><dict><key>displayName</key><string>Gems</string><key>description</key><string>A bag of gems</string></dict></dict>
    		</dict>
    		<key>com.acme.shop.club.monthly</key>
    		<dict>
    			<key>kind</key><string>auto-renewable</string>
    			<key>referenceName</key><string>Club Monthly</string>
    			<key>subscriptionGroup</key><string>Club</string>
    			<key>groupLevel</key><integer>1</integer>
    			<key>subscriptionPeriod</key><string>P1M</string>
    			<key>price</key><string>2.99</string>
    			<key>currency</key><string>USD</string>
    			<key>familyShareable</key><true/>
    			<key>localizations</key>
    			<dict><key>en-US</key><dict><key>displayName</key><string>Club</string><key>description</key><string>Every month</string></dict></dict>
    		</dict>
    	</dict>
    </dict>
    </plist>
    """
}
