"""timm models for the real-world corpus: architectures across families, random weights
(pretrained=False, fixed seed), 10 classes, at each model's own input size. Most trace with
torch.fx.symbolic_trace; those with control flow on input sizes (VGG's pre-logits check, MobileViT,
CrossViT, EfficientViT, TinyViT) go through torch.export."""
import torch
import timm

# (timm name, tracer)
MODELS = [
    ("resnet18", "symbolic"), ("mobilenetv3_small_050", "symbolic"), ("efficientnet_b0", "symbolic"),
    ("convnext_atto", "symbolic"), ("regnetx_002", "symbolic"), ("ghostnet_050", "symbolic"),
    ("mixnet_s", "symbolic"), ("densenet121", "symbolic"), ("dla34", "symbolic"), ("dpn48b", "symbolic"),
    ("hrnet_w18_small", "symbolic"), ("rexnet_100", "symbolic"), ("cspresnet50", "symbolic"),
    ("resnest14d", "symbolic"), ("res2net50_14w_8s", "symbolic"), ("selecsls42b", "symbolic"),
    ("tinynet_e", "symbolic"), ("lcnet_050", "symbolic"), ("mnasnet_050", "symbolic"), ("repvgg_a0", "symbolic"),
    ("inception_v3", "symbolic"), ("xception41", "symbolic"), ("nfnet_l0", "symbolic"),
    ("efficientformer_l1", "symbolic"), ("vit_tiny_patch16_224", "symbolic"), ("deit_tiny_patch16_224", "symbolic"),
    ("swin_tiny_patch4_window7_224", "symbolic"), ("levit_128s", "symbolic"), ("poolformer_s12", "symbolic"),
    ("convmixer_768_32", "symbolic"), ("coat_lite_tiny", "symbolic"), ("pit_ti_224", "symbolic"),
    ("mobilevit_xxs", "export"), ("crossvit_tiny_240", "export"), ("efficientvit_m0", "export"),
    ("tiny_vit_5m_224", "export"), ("resnet18", "export"), ("vit_tiny_patch16_224", "export"),
    ("convnext_atto", "export"),
]


def build(name):
    """(model in eval mode, example input)."""
    torch.manual_seed(0)
    model = timm.create_model(name, pretrained=False, num_classes=10).eval()
    size = model.pretrained_cfg.get("input_size", (3, 224, 224))
    x = torch.randn(1, *size, generator=torch.Generator().manual_seed(1))
    return model, x
