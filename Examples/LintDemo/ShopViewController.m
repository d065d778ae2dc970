#import <StoreKit/StoreKit.h>
#import "ShopViewController.h"

@implementation ShopViewController

- (void)requestProducts {
    // Literals in comments never fire: @"com.appcoda.fakegame.superpowers", @"$0.99".
    NSSet *ids = [NSSet setWithObjects:@"com.appcoda.fakegame.superpowers", @"com.appcoda.fakegame.unlock-maps", nil];
    SKProductsRequest *request = [[SKProductsRequest alloc] initWithProductIdentifiers:ids];
    request.delegate = self;
    [request start];
}

- (void)showProduct:(SKProduct *)product {
    self.priceLabel.text = [NSString stringWithFormat:@"%.2f €", product.price.floatValue];
}

@end
